import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import type { HearthBridge, IpcRendererLike } from '../hearth-bridge.js';

export const preloadSource = fileURLToPath(new URL('../index.ts', import.meta.url));

export interface PreloadExports {
  FRAME_CHANNEL: string;
  VERSION_ARG: string;
  GATEWAY_URL_ARG: string;
  createBridge(ipc: IpcRendererLike, options: { version: string; gatewayUrl?: string }): HearthBridge;
  optionsFromArgv(argv: readonly string[]): { version: string; gatewayUrl?: string };
}

export interface SandboxResult {
  exports: PreloadExports;
  /** What the preload put on the page with contextBridge.exposeInMainWorld. */
  exposed: Map<string, unknown>;
  /** Every module name the preload asked `require` for. */
  required: string[];
}

/**
 * Runs the preload the way Electron runs a sandboxed preload: compiled to
 * CommonJS, wrapped in a function given (require, process, exports, module), in a
 * fresh global, with a `require` that knows only 'electron'. So a preload that
 * reached for one of our own files or a Node builtin would fail here too.
 */
export async function runPreloadInSandbox(options: {
  ipcRenderer: IpcRendererLike;
  processType?: string;
  argv?: string[];
  /** Defaults to transpiling src-preload/index.ts; pass dist/src-preload/index.js to test the build. */
  compiledJs?: string;
}): Promise<SandboxResult> {
  const js =
    options.compiledJs ??
    ts.transpileModule(await readFile(preloadSource, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: 'index.ts',
    }).outputText;
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
    ipcRenderer: options.ipcRenderer,
  };
  const sandboxRequire = (name: string) => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found in the sandbox: ${name}`);
  };
  const module = { exports: {} as unknown };
  const sandboxProcess = { type: options.processType ?? 'renderer', argv: options.argv ?? [], sandboxed: true };
  const wrapper = runInNewContext(`(function (require, process, exports, module) {${js}\n})`, {}) as (
    ...args: unknown[]
  ) => void;
  wrapper(sandboxRequire, sandboxProcess, module.exports, module);
  return { exports: module.exports as PreloadExports, exposed, required };
}
