import { useEffect, useState } from 'react';
import { useDomain, useStores, useT } from '../../app/stores-context.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import { record, str } from '../../stores/gateway-port.js';
import type { SubagentCardStatus } from '../../stores/subagents-store.js';
import { Markdown } from './markdown.js';
import './subagent-card.css';

const statusTone: Record<SubagentCardStatus, string> = {
  running: 'accent',
  ok: 'ok',
  error: 'danger',
  timeout: 'danger',
  aborted: 'warn',
  ended: 'plain',
};
const toolTone = { running: 'accent', done: 'ok', error: 'danger' } as const;

/**
 * A `sessions_spawn` call in the parent's chat, shown as its subagent: live while it runs (its
 * text, tools, status, cost), open by default then; its own chat one click away, and an abort.
 */
export function SubagentCardView({ message }: { message: ChatMessage }) {
  const t = useT();
  const { subagents, sessions } = useStores();
  const parentSessionKey = useDomain('sessions', (s) => s.activeKey);
  const toolCallId = message.toolCallId ?? '';
  const card = useDomain('subagents', (s) => {
    const id = s.byToolCall[toolCallId];
    return id ? s.cards[id] : undefined;
  });
  const aborting = useDomain('subagents', (s) => (card ? s.aborting[card.id] === true : false));
  const abortError = useDomain('subagents', (s) => s.error);
  const [openChoice, setOpenChoice] = useState<boolean | undefined>(undefined);
  const running = card ? card.status === 'running' : message.toolOutput === undefined;
  const open = openChoice ?? running;
  // Seen live, it stays open when it ends (until the person closes it); ended on arrival, it starts closed.
  useEffect(() => {
    if (running && openChoice === undefined) setOpenChoice(true);
  }, [running, openChoice]);

  // After a reload: the host's registry first, then the call's result in the transcript.
  const { toolInput, toolOutput } = message;
  useEffect(() => {
    if (card || !toolCallId) return;
    void subagents
      .getState()
      .loadUnder(parentSessionKey)
      .then(() => subagents.getState().adopt({ toolCallId, parentSessionKey, input: toolInput, output: toolOutput }));
  }, [card, subagents, parentSessionKey, toolCallId, toolInput, toolOutput]);
  // Opened after the fact: what it did is read from its own transcript.
  const cardId = card?.id;
  const empty = card ? !card.text && card.tools.length === 0 : false;
  useEffect(() => {
    if (open && cardId && empty && !running) void subagents.getState().loadSteps(cardId);
  }, [open, cardId, empty, running, subagents]);

  const input = record(toolInput);
  const name = card?.label ?? (str(input.label) || card?.id || t('subagent.unnamed'));
  const task = card?.task || str(input.task);
  const status: SubagentCardStatus = card?.status ?? 'running';
  const tokens = card?.cost ? card.cost.inputTokens + card.cost.outputTokens : 0;

  return (
    <section className={`subagent-card is-${status}`} aria-label={t('subagent.card', { name })}>
      <button type="button" className="subagent-head" aria-expanded={open} onClick={() => setOpenChoice(!open)}>
        <span className="subagent-title">{t('subagent.title', { name })}</span>
        <span className={`badge ${statusTone[status]}`}>{t(`subagent.status.${status}`)}</span>
        {running && <span className="typing" aria-hidden="true" />}
        <span className="subagent-meta">
          {card && t('subagent.steps', { count: card.steps })}
          {card?.cost && card.cost.calls > 0 && (
            <> · {t('subagent.cost', { tokens, usd: `$${card.cost.costUsd.toFixed(4)}` })}</>
          )}
        </span>
      </button>
      {open && (
        <div className="subagent-body">
          {task && <p className="subagent-task">{task}</p>}
          {card && card.tools.length > 0 && (
            <ul className="subagent-tools" aria-label={t('subagent.tools')}>
              {card.tools.map((tool) => (
                <li key={tool.toolCallId} className={`badge ${toolTone[tool.state]}`}>
                  {tool.name}
                </li>
              ))}
            </ul>
          )}
          {card?.text ? (
            <div className="subagent-text" data-testid="subagent-text">
              <Markdown text={card.text} />
            </div>
          ) : (
            running && <p className="faint">{t('subagent.waiting')}</p>
          )}
          {card?.error && (
            <p className="notice" role="alert">
              {card.error}
            </p>
          )}
          {abortError && aborting === false && card?.status === 'running' && (
            <p className="notice" role="alert">
              {t('common.error', { message: abortError })}
            </p>
          )}
          {card && (
            <div className="subagent-actions">
              <button
                type="button"
                className="button small"
                onClick={() => sessions.getState().select(card.sessionKey)}
              >
                {t('subagent.open')}
              </button>
              {card.status === 'running' && (
                <button
                  type="button"
                  className="button small danger"
                  disabled={aborting}
                  onClick={() => void subagents.getState().abort(card.id)}
                >
                  {t('subagent.abort')}
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
