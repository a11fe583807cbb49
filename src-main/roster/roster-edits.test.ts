import { describe, expect, it } from 'vitest';
import { agentIdFromName, createAgent, removeAgent, updateAgent } from './roster-edits.js';

const empty = { list: [], bindings: [] };

describe('agent ids from names', () => {
  it('makes a readable id, and a unique one when it is taken', () => {
    expect(agentIdFromName('Research Bot', new Set())).toBe('research-bot');
    expect(agentIdFromName('Café Über', new Set())).toBe('cafe-uber');
    expect(agentIdFromName('Research Bot', new Set(['research-bot', 'research-bot-2']))).toBe('research-bot-3');
    // Nothing of a Chinese name survives the slug, and `main` is never handed out.
    expect(agentIdFromName('小助手', new Set())).toBe('agent');
    expect(agentIdFromName('Main', new Set(['main']))).toBe('main-2');
  });
});

describe('roster edits', () => {
  it('creates an agent with its model, fallbacks and tool profile, and refuses a duplicate id', () => {
    const { section, agentId } = createAgent(empty, {
      name: ' Writer ',
      model: 'openai/gpt-4o',
      fallbacks: ['anthropic/claude-sonnet-4'],
      toolProfile: 'minimal',
      emoji: '✍️',
    });
    expect(agentId).toBe('writer');
    expect(section.list).toEqual([
      {
        id: 'writer',
        name: 'Writer',
        model: { primary: 'openai/gpt-4o', fallbacks: ['anthropic/claude-sonnet-4'] },
        tools: { profile: 'minimal' },
        emoji: '✍️',
      },
    ]);
    expect(() => createAgent(section, { name: 'x', id: 'writer' })).toThrow('an agent "writer" already exists');
    expect(() => createAgent(section, { name: 'x', id: 'Bad Id' })).toThrow('agent id "Bad Id" is not valid');
    expect(() => createAgent(section, { name: '   ' })).toThrow('agent name must not be empty');
  });

  it('updates what was given and keeps the rest, clears a model with null, and keeps other keys', () => {
    const start = {
      list: [{ id: 'writer', name: 'Writer', model: 'openai/gpt-4o', memory: { recall: { enabled: false } } }],
      bindings: [],
    };
    const renamed = updateAgent(start, 'writer', { name: 'Author', fallbacks: ['openai/gpt-4o-mini'] });
    expect(renamed.list[0]).toEqual({
      id: 'writer',
      name: 'Author',
      model: { primary: 'openai/gpt-4o', fallbacks: ['openai/gpt-4o-mini'] },
      memory: { recall: { enabled: false } },
    });
    expect(updateAgent(renamed, 'writer', { model: null }).list[0]).not.toHaveProperty('model');
    expect(() => updateAgent(empty, 'ghost', { name: 'x' })).toThrow('no agent "ghost"');
    expect(() => updateAgent({ list: [{ id: 'a' }], bindings: [] }, 'a', { fallbacks: ['x/y'] })).toThrow(
      'fallbacks need a model',
    );
    // `main` needs no entry: setting it creates one.
    expect(updateAgent(empty, 'main', { model: 'openai/gpt-4o' }).list).toEqual([
      { id: 'main', model: 'openai/gpt-4o' },
    ]);
  });

  it('removes an agent with its bindings, never main', () => {
    const section = {
      list: [{ id: 'work' }, { id: 'home' }],
      bindings: [
        { agentId: 'work', match: { channel: 'slack' } },
        { agentId: 'home', match: { channel: 'telegram' } },
        { agentId: 'work', match: { channel: 'discord' } },
      ],
    };
    const { section: next, removedBindings } = removeAgent(section, 'work');
    expect(next.list).toEqual([{ id: 'home' }]);
    expect(next.bindings).toEqual([{ agentId: 'home', match: { channel: 'telegram' } }]);
    expect(removedBindings).toBe(2);
    expect(() => removeAgent(section, 'main')).toThrow('the main agent cannot be removed');
    expect(() => removeAgent(section, 'ghost')).toThrow('no agent "ghost"');
  });

  it('replaces only this agent’s bindings, in place, and starts an exec override from the root policy', () => {
    const section = {
      list: [{ id: 'work' }, { id: 'home' }],
      bindings: [
        { agentId: 'home', match: { channel: 'telegram' } },
        { agentId: 'work', match: { channel: 'slack' } },
        { agentId: 'home', match: { channel: 'discord' } },
      ],
    };
    const next = updateAgent(
      section,
      'work',
      {
        bindings: [
          { channel: 'slack', accountId: 'team' },
          { channel: 'slack', accountId: 'team' },
        ],
        exec: { ask: 'always' },
      },
      { exec: { security: 'allowlist', allowlist: [{ pattern: '/usr/bin/git' }] } },
    );
    expect(next.bindings).toEqual([
      { agentId: 'home', match: { channel: 'telegram' } },
      { agentId: 'work', match: { channel: 'slack', accountId: 'team' } },
      { agentId: 'home', match: { channel: 'discord' } },
    ]);
    // The root allowlist is kept: an agent's own policy replaces the root one whole.
    expect(next.list[0]).toEqual({
      id: 'work',
      tools: { exec: { security: 'allowlist', allowlist: [{ pattern: '/usr/bin/git' }], ask: 'always' } },
    });
    expect(updateAgent(next, 'work', { exec: null, engine: { cli: 'codex' } }).list[0]).toEqual({
      id: 'work',
      engine: { cli: 'codex' },
    });
  });
});
