import { describe, expect, it } from 'vitest';
import { validateConfigValue } from '../config/index.js';
import { resolveModelSelection } from './model-selection.js';

describe("providers' model slice of agents", () => {
  it('takes "provider/model" or { primary, fallbacks } on agents.defaults and agents.list[]', () => {
    const checked = validateConfigValue({
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
    const checked = validateConfigValue({ agents: { list: [{ id: 'main', model: { primary: 'x/y', extra: 1 } }] } });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.map((e) => e.path)).toContain('agents.list.0.model');
  });
});
