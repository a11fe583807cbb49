import { describe, expect, it } from 'vitest';
import { formFields, parseList, readField, withField } from './settings-form.js';

const security = formFields.find((f) => f.path.join('.') === 'tools.exec.security')!;

describe('settings form mapping', () => {
  it('reads a set value and falls back to the schema default when unset', () => {
    expect(readField({ tools: { exec: { security: 'deny' } } }, security)).toBe('deny');
    expect(readField({}, security)).toBe('allowlist');
  });

  it('sets one path and keeps every other key as written', () => {
    const raw = JSON.stringify({ agents: { list: [{ id: 'main' }] }, tools: { profile: 'coding' } });
    const next = JSON.parse(withField(raw, ['tools', 'exec', 'security'], 'full'));
    expect(next).toEqual({
      agents: { list: [{ id: 'main' }] },
      tools: { profile: 'coding', exec: { security: 'full' } },
    });
  });

  it('refuses to write through a value that is not an object', () => {
    expect(() => withField('{"tools": 3}', ['tools', 'exec', 'ask'], 'off')).toThrow('tools is not an object');
    expect(() => withField('[]', ['x'], 1)).toThrow('not a JSON object');
  });

  it('splits a typed list on commas and lines', () => {
    expect(parseList('HOME, PATH\n\nLANG ')).toEqual(['HOME', 'PATH', 'LANG']);
  });
});
