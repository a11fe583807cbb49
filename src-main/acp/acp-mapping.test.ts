import { describe, expect, it } from 'vitest';
import { decisionOf, permissionOptionsFor, promptText, toolKindOf, toolTitleOf } from './index.js';

describe('ACP ↔ Hearth mapping', () => {
  it('offers only the decisions an approval allows and maps answers back, a cancel or a stranger id being deny', () => {
    const all = permissionOptionsFor(['allow-once', 'allow-always', 'deny']);
    expect(all.map((o) => [o.optionId, o.kind])).toEqual([
      ['allow-once', 'allow_once'],
      ['allow-always', 'allow_always'],
      ['deny', 'reject_once'],
    ]);
    expect(permissionOptionsFor(['allow-once', 'deny']).map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
    expect(decisionOf({ outcome: 'selected', optionId: 'allow-always' }, all)).toBe('allow-always');
    expect(decisionOf({ outcome: 'selected', optionId: 'allow-once' }, all)).toBe('allow-once');
    expect(decisionOf({ outcome: 'selected', optionId: 'deny' }, all)).toBe('deny');
    expect(decisionOf({ outcome: 'selected', optionId: 'made-up' }, all)).toBe('deny');
    expect(decisionOf({ outcome: 'cancelled' }, all)).toBe('deny');
  });

  it('turns prompt blocks into one message and refuses what chat.send cannot carry', () => {
    expect(
      promptText([
        { type: 'text', text: 'Fix this:' },
        { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'let x = 1' } },
        { type: 'resource_link', uri: 'file:///w/b.ts', name: 'b.ts' },
      ]),
    ).toBe('Fix this:\n\nfile:///w/a.ts:\n```\nlet x = 1\n```\n\n[b.ts](file:///w/b.ts)');
    expect(() => promptText([{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }])).toThrow(
      'audio content is not supported',
    );
    expect(() => promptText([{ type: 'resource', resource: { uri: 'file:///x.png', blob: 'AA' } }])).toThrow(
      'binary resource file:///x.png is not supported',
    );
    expect(() => promptText([{ type: 'text', text: '  ' }])).toThrow('the prompt is empty');
  });

  it('names tool calls for the editor', () => {
    expect(toolKindOf('exec')).toBe('execute');
    expect(toolKindOf('read')).toBe('read');
    expect(toolKindOf('edit')).toBe('edit');
    expect(toolKindOf('memory_search')).toBe('search');
    expect(toolKindOf('web_fetch')).toBe('fetch');
    expect(toolKindOf('github__create_issue')).toBe('other');
    expect(toolTitleOf('exec', { command: 'ls -la' })).toBe('exec: ls -la');
    expect(toolTitleOf('read', { path: 'notes.md' })).toBe('read: notes.md');
    expect(toolTitleOf('canvas_clear', {})).toBe('canvas_clear');
  });
});
