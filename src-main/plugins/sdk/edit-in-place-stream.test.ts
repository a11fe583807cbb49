import { describe, expect, it } from 'vitest';
import { type EditInPlaceOptions, startEditInPlaceStream } from './edit-in-place-stream.js';

// A streamed reply as a person sees it on a platform that edits messages: one message that grows,
// never one platform call per model token, ending with the whole reply (continued in further
// messages when too long). The "platform" here is a tiny in-memory chat: what it holds is what a
// person would see.

interface Chat {
  messages: { id: number; versions: string[] }[];
  calls: string[];
}

function platform(overrides: Partial<EditInPlaceOptions<number>> = {}) {
  const chat: Chat = { messages: [], calls: [] };
  const errors: unknown[] = [];
  const show = (id: number, text: string) => chat.messages.find((m) => m.id === id)!.versions.push(text);
  const post = (text: string) => {
    const id = chat.messages.length + 1;
    chat.messages.push({ id, versions: [text] });
    return id;
  };
  const options: EditInPlaceOptions<number> = {
    editIntervalMs: 20,
    onError: (error) => errors.push(error),
    preview: (text) => text,
    send: async (text) => {
      chat.calls.push(`send ${text}`);
      return post(text);
    },
    edit: async (id, text) => {
      chat.calls.push(`edit ${text}`);
      show(id, text);
    },
    finalParts: (text) => [text],
    editFinal: async (id, part, alreadyShown) => {
      chat.calls.push(`final ${part}`);
      if (!alreadyShown) show(id, part);
    },
    sendFinal: async (part, index) => {
      chat.calls.push(`follow-up ${index} ${part}`);
      post(part);
    },
    ...overrides,
  };
  return { chat, errors, options, shown: () => chat.messages.map((m) => m.versions.at(-1)) };
}

/** A promise and its resolver: holds a platform call on the wire until the test lets it answer. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('an edit-in-place reply', () => {
  it('sends the first words at once and coalesces a burst into a few edits of one message', async () => {
    const { chat, errors, options, shown } = platform();
    const stream = startEditInPlaceStream(options);
    let text = '';
    for (let i = 0; i < 200; i++) {
      text += `word${i} `;
      stream.update(text);
    }
    await stream.end(`${text.trim()}.`);
    expect(chat.calls[0]).toBe(`send ${text}`);
    expect(shown()).toEqual([`${text.trim()}.`]);
    // The first send, perhaps a coalesced edit, the final: never one call per update.
    expect(chat.calls.length).toBeLessThanOrEqual(4);
    expect(errors).toEqual([]);
  });

  it('records what a call carried, not newer text that arrived meanwhile, so the final edit is not skipped', async () => {
    const held = gate();
    const started = gate();
    const { options, shown } = platform();
    const stream = startEditInPlaceStream({
      ...options,
      send: async (text) => {
        started.open();
        await held.opened;
        return options.send(text);
      },
    });
    stream.update('Hello');
    await started.opened;
    // Newer text while the first send is still on the wire.
    stream.update('Hello there');
    held.open();
    await stream.end('Hello there');
    expect(shown()).toEqual(['Hello there']);
  });

  it('does not repeat an edit when the message already shows the final text', async () => {
    const { chat, options } = platform();
    const stream = startEditInPlaceStream(options);
    stream.update('All done');
    await stream.end('All done');
    expect(chat.calls).toEqual(['send All done', 'final All done']);
    expect(chat.messages[0]!.versions).toEqual(['All done']);
  });

  it('continues a reply too long for one message in follow-ups', async () => {
    const { chat, options, shown } = platform({
      finalParts: (text) => text.match(/.{1,10}/g) ?? [],
    });
    const stream = startEditInPlaceStream(options);
    stream.update('0123456789');
    await stream.end('0123456789abcdefghijKLMNO');
    expect(shown()).toEqual(['0123456789', 'abcdefghij', 'KLMNO']);
    expect(chat.calls.filter((c) => c.startsWith('follow-up'))).toEqual([
      'follow-up 1 abcdefghij',
      'follow-up 2 KLMNO',
    ]);
  });

  it('sends the final text as a new message when nothing was shown yet, and an empty reply as "(no reply)"', async () => {
    const first = platform();
    await startEditInPlaceStream(first.options).end('Short answer');
    expect(first.chat.calls).toEqual(['follow-up 0 Short answer']);

    const empty = platform();
    const stream = startEditInPlaceStream(empty.options);
    stream.update('   ');
    await stream.end('  ');
    expect(empty.shown()).toEqual(['(no reply)']);
  });

  it('reports a failed edit and still lands the final text', async () => {
    const { errors, options, shown } = platform();
    const tried = gate();
    const sent = gate();
    const stream = startEditInPlaceStream({
      ...options,
      send: async (text) => {
        const id = await options.send(text);
        sent.open();
        return id;
      },
      edit: async (id, text) => {
        tried.open();
        throw new Error(`edit refused: ${id} ${text}`);
      },
    });
    stream.update('Thinking');
    await sent.opened;
    stream.update('Thinking harder');
    await tried.opened;
    await stream.end('Thought it through');
    expect(errors.map(String)).toEqual(['Error: edit refused: 1 Thinking harder']);
    expect(shown()).toEqual(['Thought it through']);
  });

  it('takes "not modified" as shown, not as a failure', async () => {
    const { chat, errors, options } = platform();
    const tried = gate();
    const sent = gate();
    const stream = startEditInPlaceStream({
      ...options,
      send: async (text) => {
        const id = await options.send(text);
        sent.open();
        return id;
      },
      edit: async () => {
        tried.open();
        throw new Error('message is not modified');
      },
      isUnchanged: (error) => /not modified/.test(String(error)),
    });
    stream.update('Same');
    await sent.opened;
    stream.update('Same text');
    await tried.opened;
    await stream.end('Same text');
    expect(errors).toEqual([]);
    // The message counts as showing "Same text": the final edit knows it changes nothing.
    expect(chat.messages[0]!.versions).toEqual(['Same']);
  });

  it('ignores updates after the end', async () => {
    const { chat, options } = platform();
    const stream = startEditInPlaceStream(options);
    stream.update('Done');
    await stream.end('Done.');
    stream.update('Done. And more');
    expect(chat.calls).toEqual(['send Done', 'final Done.']);
  });
});
