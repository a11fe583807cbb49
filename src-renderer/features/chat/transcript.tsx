import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { useT } from '../../app/stores-context.js';
import type { ChatMessage } from '../../stores/chat-message.js';
import { type MessageActions, MessageView } from './message-view.js';

export interface TranscriptProps {
  messages: ChatMessage[];
  /**
   * A fixed viewport size instead of measuring the element: for environments without
   * layout (jsdom), where rows keep their estimated height. In the app the virtualizer
   * measures the scroll container and every row itself.
   */
  viewport?: { width: number; height: number };
  /** Forks the chat from a message (the message menu's "Fork from here"). */
  onFork?: (message: ChatMessage) => void;
  /** Regenerate / Retry the last answer; absent while a run streams. */
  onRegenerate?: () => void;
  /** Edit and resend the person's last message; absent while a run streams. */
  onEdit?: (text: string) => void;
}

/** Which message gets which action: Edit on the person's last message, Regenerate on the answer after it. */
function actionsFor(
  messages: ChatMessage[],
  { onFork, onRegenerate, onEdit }: Pick<TranscriptProps, 'onFork' | 'onRegenerate' | 'onEdit'>,
): Map<string, MessageActions> {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const lastAnswer = messages.findLastIndex((m) => m.role === 'assistant');
  const map = new Map<string, MessageActions>();
  messages.forEach((m, i) => {
    map.set(m.id, {
      onFork,
      onEdit: i === lastUser ? onEdit : undefined,
      onRegenerate: i === lastAnswer && i > lastUser && lastUser >= 0 ? onRegenerate : undefined,
    });
  });
  return map;
}

/** Only the rows on screen are in the DOM, so 10 000 messages scroll like 10. */
export function Transcript({ messages, viewport, onFork, onRegenerate, onEdit }: TranscriptProps) {
  const t = useT();
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToEnd = useRef(true);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => messages[index]?.id ?? index,
    ...(viewport
      ? {
          initialRect: viewport,
          observeElementRect: (_instance: unknown, callback: (rect: { width: number; height: number }) => void) => {
            callback(viewport);
            return () => {};
          },
        }
      : {}),
  });

  const last = messages[messages.length - 1];
  const actions = useMemo(
    () => actionsFor(messages, { onFork, onRegenerate, onEdit }),
    [messages, onFork, onRegenerate, onEdit],
  );
  // Follow new and streaming messages, unless the user scrolled up to read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the tail grows or streams
  useEffect(() => {
    if (stickToEnd.current && messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, last?.text, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    stickToEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };

  if (messages.length === 0) return <div className="transcript empty">{t('chat.empty')}</div>;
  return (
    <div
      className="transcript"
      ref={scrollRef}
      onScroll={onScroll}
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      data-testid="transcript"
    >
      <div className="transcript-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={viewport ? undefined : virtualizer.measureElement}
            className="transcript-row"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <MessageView message={messages[item.index]!} actions={actions.get(messages[item.index]!.id)} />
          </div>
        ))}
      </div>
    </div>
  );
}
