import { describe, expect, it } from 'vitest';
import { createTranslate } from '../i18n/translate.js';
import { describeDecider } from './decider.js';

describe('describeDecider', () => {
  const t = createTranslate('en');
  const say = (resolvedBy: string) => {
    const { key, name } = describeDecider(resolvedBy);
    return t(key, { name: name ?? '' });
  };

  it('names each kind of decider the gateway reports', () => {
    expect(say('operator:hearth-control-ui')).toBe('Control UI');
    // What the real gateway sends: display name or client id, then the connection id.
    expect(say('operator:hearth-control-ui(fe167edd-4c7a-4b4a-a596-5dbe66951a55)')).toBe('Control UI');
    expect(say('operator:Sam laptop(c1)')).toBe('Sam laptop');
    expect(say('chat:hearth-control-ui')).toBe('a reply in Control UI');
    expect(say('chat:telegram')).toBe('a reply in telegram');
    expect(say('prompter:desktop')).toBe('the desktop dialog');
    expect(say('smart-judge')).toBe('smart triage');
    expect(say('expiry')).toBe('timeout (no answer)');
    expect(say('no-approver')).toBe('policy (no approver connected)');
    expect(say('')).toBe('unknown');
  });
});
