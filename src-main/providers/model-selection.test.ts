import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateConfigValue } from '../config/index.js';
import { createAgentsConfigSchema } from '../sessions/index.js';
import { resolveModelSelection } from './model-selection.js';
import { agentModelConfigSchema } from './provider-config.js';

// providers' slice merged into routing's agents section, as the host's schema merges it.
const model = agentModelConfigSchema.optional();
const schema = z.object({ agents: createAgentsConfigSchema({ entry: { model }, defaults: { model } }) });

describe("providers' model slice of agents", () => {
  it('takes "provider/model" or { primary, fallbacks } on agents.defaults and agents.list[]', () => {
    const checked = validateConfigValue(schema, {
      agents: {
        defaults: { model: 'openai/gpt-5' },
        list: [{ id: 'main' }, { id: 'work', model: { primary: 'anthropic/claude', fallbacks: ['openai/gpt-5'] } }],
      },
    });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(resolveModelSelection(checked.config.agents, 'main')).toEqual({ primary: 'openai/gpt-5', fallbacks: [] });
    expect(resolveModelSelection(checked.config.agents, 'work')).toEqual({
      primary: 'anthropic/claude',
      fallbacks: ['openai/gpt-5'],
    });
  });

  it('refuses a model that is neither when hearth.json loads, naming where it is', () => {
    const checked = validateConfigValue(schema, {
      agents: { list: [{ id: 'main', model: { primary: 'x/y', extra: 1 } }] },
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.map((e) => e.path)).toContain('agents.list.0.model');
  });
});
