import { describe, expect, it } from 'vitest';
import { agentsSectionSchema } from '../host/hearth-config.js';
import { agentsTalkSettings } from './agents-talk-config.js';

describe('agents.defaults.agentToAgent and agents.list[].canMessage', () => {
  it('allows nothing by default, directed pairs and wildcards when listed', () => {
    const none = agentsTalkSettings(agentsSectionSchema.parse({ list: [{ id: 'main' }, { id: 'research' }] }));
    expect(none.allows('main', 'research')).toBe(false);
    expect(none.maxTurns).toBe(5);

    const some = agentsTalkSettings(
      agentsSectionSchema.parse({
        defaults: {
          agentToAgent: {
            allow: [
              ['main', 'research'],
              ['*', 'helper'],
            ],
            maxTurns: 3,
          },
        },
        list: [{ id: 'main' }, { id: 'research', canMessage: ['writer'] }, { id: 'writer' }, { id: 'helper' }],
      }),
    );
    expect(some.allows('main', 'research')).toBe(true);
    expect(some.allows('research', 'main')).toBe(false);
    expect(some.allows('writer', 'helper')).toBe(true);
    expect(some.allows('research', 'writer')).toBe(true);
    expect(some.allows('writer', 'research')).toBe(false);
    expect(some.maxTurns).toBe(3);
  });

  it('refuses a malformed allowlist, naming the field', () => {
    const result = agentsSectionSchema.safeParse({ defaults: { agentToAgent: { allow: ['main'] } } });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues[0]?.path)).toContain('allow');
    const subagents = agentsSectionSchema.safeParse({ defaults: { subagents: { maxDepth: 9 } } });
    expect(subagents.success).toBe(false);
  });
});
