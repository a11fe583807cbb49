import { describe, expect, it } from 'vitest';
import { createTranslate } from '../i18n/translate.js';
import { chatTitle } from './chat-title.js';

const en = createTranslate('en');
const zh = createTranslate('zh');

describe('chatTitle', () => {
  it('uses the title a person gave or the first message gave, before anything from the key', () => {
    expect(chatTitle('agent:main:main', { customTitle: 'Plan the trip' }, en)).toBe('Plan the trip');
    expect(chatTitle('agent:main:chat-1a2b3c4d', { customTitle: '  Taxes 2026 ' }, en)).toBe('Taxes 2026');
  });

  it('never shows agent:main:main: the main chat has a name in each language', () => {
    expect(chatTitle('agent:main:main', undefined, en)).toBe('Main');
    expect(chatTitle('agent:main:main', undefined, zh)).toBe('主会话');
    expect(chatTitle('agent:work:main', undefined, en)).toBe('work · main chat');
  });

  it('names a fresh chat, a task and an editor session by what they are, not their ids', () => {
    expect(chatTitle('agent:main:chat-1a2b3c4d', undefined, en)).toBe('New chat');
    expect(chatTitle('agent:main:subagent:0f8e2a9c-1111-2222-3333-444455556666', undefined, en)).toBe(
      'Subagent task 0f8e2a',
    );
    expect(chatTitle('agent:main:cron:daily-digest', undefined, en)).toBe('Scheduled task daily-digest');
    expect(chatTitle('agent:main:heartbeat', undefined, zh)).toBe('心跳');
    expect(chatTitle('agent:main:acp-9f9f', undefined, en)).toBe('Editor session');
  });

  it('shows a channel chat by its peer name, else by channel and peer', () => {
    expect(chatTitle('agent:main:telegram:direct:4242', { displayName: 'Ada' }, en)).toBe('Ada');
    expect(chatTitle('agent:main:telegram:direct:4242', undefined, en)).toBe('Telegram · 4242');
    expect(chatTitle('agent:main:slack:acme:group:C01%3Aops', undefined, en)).toBe('Slack · C01:ops');
  });

  it('keeps a named chat label and a key it does not understand as they are', () => {
    expect(chatTitle('agent:main:work-notes', undefined, en)).toBe('work-notes');
    expect(chatTitle('legacy-key', undefined, en)).toBe('legacy-key');
  });
});
