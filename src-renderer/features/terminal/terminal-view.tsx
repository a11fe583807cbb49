import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import { measureGrid } from './fit-terminal.js';
import './terminal.css';

const font = { family: 'ui-monospace, "JetBrains Mono", Menlo, Consolas, "Liberation Mono", monospace', size: 13 };

// ANSI colours tuned to each background: xterm's defaults are made for black and wash out on light.
function themeFor(dark: boolean) {
  return dark
    ? {
        background: '#121211',
        foreground: '#ecece8',
        cursor: '#e07a4b',
        selectionBackground: '#3a261c',
        green: '#6cc08f',
        red: '#f07a72',
        yellow: '#e0b04d',
        blue: '#7aa7f0',
        brightGreen: '#8fd1a5',
      }
    : {
        background: '#fbfbf9',
        foreground: '#1d1d1b',
        cursor: '#c2592b',
        selectionBackground: '#f6e5dc',
        black: '#1d1d1b',
        green: '#2f7d4f',
        red: '#b3261e',
        yellow: '#9a6b00',
        blue: '#2859b8',
        magenta: '#8a3ffc',
        cyan: '#0f7285',
        white: '#6b6b66',
        brightGreen: '#2f7d4f',
        brightBlack: '#6b6b66',
        brightWhite: '#1d1d1b',
      };
}

/** xterm.js attached to an exec-host terminal: keystrokes go out as terminal.input, output streams in. */
export function TerminalView() {
  const t = useT();
  const { terminal } = useStores();
  const terminalId = useDomain('terminal', (s) => s.terminalId);
  const exitCode = useDomain('terminal', (s) => s.exitCode);
  const error = useDomain('terminal', (s) => s.error);
  const opening = useDomain('terminal', (s) => s.opening);
  const hostRef = useRef<HTMLDivElement>(null);
  const xtermRef = useRef<Terminal>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
    const xterm = new Terminal({
      fontFamily: font.family,
      fontSize: font.size,
      cursorBlink: true,
      scrollback: 5000,
      theme: themeFor(dark),
    });
    xtermRef.current = xterm;
    xterm.open(host);
    const size = measureGrid(host, font);
    xterm.resize(size.cols, size.rows);
    const input = xterm.onData((data) => terminal.getState().input(data));
    const offOutput = terminal.getState().onOutput((data) => xterm.write(data));
    const observer = new ResizeObserver(() => {
      const next = measureGrid(host, font);
      if (next.cols !== xterm.cols || next.rows !== xterm.rows) {
        xterm.resize(next.cols, next.rows);
        terminal.getState().resize(next);
      }
    });
    observer.observe(host);
    if (!terminal.getState().terminalId) void terminal.getState().open(size);
    xterm.focus();
    return () => {
      observer.disconnect();
      input.dispose();
      offOutput();
      xterm.dispose();
      xtermRef.current = null;
    };
  }, [terminal]);

  return (
    <div className="terminal-view">
      <header className="view-bar">
        <h1>{t('terminal.title')}</h1>
        <span className="faint">
          {exitCode !== undefined ? t('terminal.exited', { code: exitCode }) : opening ? t('common.loading') : ''}
        </span>
        {terminalId ? (
          <button type="button" className="button small" onClick={() => void terminal.getState().close()}>
            {t('terminal.close')}
          </button>
        ) : (
          <button
            type="button"
            className="button small primary"
            onClick={() => {
              const xterm = xtermRef.current;
              xterm?.reset();
              void terminal.getState().open({ cols: xterm?.cols ?? 80, rows: xterm?.rows ?? 24 });
            }}
          >
            {t('terminal.open')}
          </button>
        )}
      </header>
      {error && (
        <p className="notice" role="alert" style={{ margin: 12 }}>
          {error}
        </p>
      )}
      <div className="terminal-host" ref={hostRef} data-testid="terminal" />
    </div>
  );
}
