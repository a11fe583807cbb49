import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src-main/protocol/errors.js';
import { renderWithStores, startTestApp, type TestApp } from '../../testing/render-app.js';
import { checkField, fieldAt, type JsonSchema, mergePatch, parseList } from './schema-form.js';
import { SchemaForm } from './schema-form-view.js';

// A schema as z.toJSONSchema writes one (io: input), with one field of each kind the form draws.
const schema: JsonSchema = {
  type: 'object',
  properties: {
    tools: {
      type: 'object',
      properties: {
        exec: {
          type: 'object',
          properties: {
            security: { default: 'allowlist', type: 'string', enum: ['deny', 'allowlist', 'full'] },
            timeoutMs: { default: 120000, type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 },
            retries: { type: 'integer', minimum: 1, maximum: 5 },
            image: { type: 'string', minLength: 1, description: 'The image commands run in.' },
            envPassthrough: { default: [], type: 'array', items: { type: 'string', pattern: '^[A-Z_]+$' } },
            allowlist: {
              default: [],
              type: 'array',
              items: {
                type: 'object',
                properties: { pattern: { type: 'string', minLength: 1 }, argPattern: { type: 'string' } },
                required: ['pattern'],
                additionalProperties: false,
              },
            },
            sandbox: {
              type: 'object',
              properties: { network: { default: false, type: 'boolean' } },
              additionalProperties: false,
            },
            model: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
          },
          additionalProperties: false,
        },
      },
    },
  },
};

const at = (...path: string[]) => fieldAt(schema, path)!;

describe('schema → fields', () => {
  it('reads each kind with its bounds, rules and default', () => {
    expect(at('tools', 'exec', 'security')).toMatchObject({ kind: 'enum', options: ['deny', 'allowlist', 'full'] });
    // zod's int bounds (±2^53−1) are no bound a person reads; `.positive()` is an exclusive 0.
    expect(at('tools', 'exec', 'timeoutMs')).toMatchObject({
      kind: 'number',
      fallback: 120000,
      bounds: { integer: true, min: 0, exclusiveMin: true, max: undefined },
    });
    expect(at('tools', 'exec', 'image')).toMatchObject({ kind: 'string', description: 'The image commands run in.' });
    expect(at('tools', 'exec', 'envPassthrough')).toMatchObject({ kind: 'stringList', item: { pattern: '^[A-Z_]+$' } });
    const list = at('tools', 'exec', 'allowlist');
    expect(list.kind).toBe('objectList');
    expect(list.kind === 'objectList' && list.fields.map((f) => [f.path.join('.'), f.required])).toEqual([
      ['pattern', true],
      ['argPattern', false],
    ]);
    const sandbox = at('tools', 'exec', 'sandbox');
    expect(sandbox.kind === 'section' && sandbox.fields[0]).toMatchObject({
      kind: 'boolean',
      path: ['tools', 'exec', 'sandbox', 'network'],
    });
    expect(at('tools', 'exec', 'model').kind).toBe('unsupported');
    expect(fieldAt(schema, ['tools', 'nope'])).toBeUndefined();
  });

  it('checks values against what the schema says, naming where', () => {
    expect(checkField(at('tools', 'exec', 'retries'), 0)).toEqual([
      { path: 'tools.exec.retries', code: 'min', limit: '1' },
    ]);
    expect(checkField(at('tools', 'exec', 'retries'), 2.5)).toEqual([{ path: 'tools.exec.retries', code: 'integer' }]);
    expect(checkField(at('tools', 'exec', 'timeoutMs'), 0)).toEqual([
      { path: 'tools.exec.timeoutMs', code: 'min', limit: '> 0' },
    ]);
    expect(checkField(at('tools', 'exec', 'timeoutMs'), Number.NaN)).toEqual([
      { path: 'tools.exec.timeoutMs', code: 'type' },
    ]);
    expect(checkField(at('tools', 'exec', 'security'), 'some')).toEqual([
      { path: 'tools.exec.security', code: 'enum' },
    ]);
    expect(checkField(at('tools', 'exec', 'image'), '')).toEqual([
      { path: 'tools.exec.image', code: 'minLength', limit: '1' },
    ]);
    expect(checkField(at('tools', 'exec', 'envPassthrough'), ['LANG', 'not ok'])).toEqual([
      { path: 'tools.exec.envPassthrough.1', code: 'pattern', limit: '^[A-Z_]+$' },
    ]);
    expect(checkField(at('tools', 'exec', 'allowlist'), [{ pattern: 'git' }, { argPattern: 'x' }])).toEqual([
      { path: 'tools.exec.allowlist.1.pattern', code: 'required' },
    ]);
    expect(checkField(at('tools', 'exec', 'security'), undefined)).toEqual([]);
  });

  it('writes edits as one merge patch: unset is null, lists whole', () => {
    const edits = new Map([
      ['a', { path: ['tools', 'exec', 'security'], value: 'deny' }],
      ['b', { path: ['tools', 'exec', 'timeoutMs'], value: undefined }],
      ['c', { path: ['tools', 'exec', 'allowlist'], value: [{ pattern: 'git' }] }],
    ]);
    expect(mergePatch(edits)).toEqual({
      tools: { exec: { security: 'deny', timeoutMs: null, allowlist: [{ pattern: 'git' }] } },
    });
    expect(parseList('LANG, TZ\n\nHOME ')).toEqual(['LANG', 'TZ', 'HOME']);
  });
});

let app: TestApp;
afterEach(() => {
  cleanup();
  app?.dispose();
});

function startForm(handlers: Parameters<typeof startTestApp>[0] = {}) {
  app = startTestApp({
    'config.schema': () => ({ schema }),
    'config.get': () => ({
      path: '/h/hearth.json',
      exists: true,
      raw: '{}',
      parsed: { tools: { exec: { security: 'deny', allowlist: [{ pattern: 'git', argPattern: '^status$' }] } } },
      hash: 'h1',
      valid: true,
    }),
    ...handlers,
  });
  renderWithStores(app, <SchemaForm sections={[['tools', 'exec']]} />);
}

describe('SchemaForm', () => {
  it('draws every kind from the schema, with the file’s values and the defaults', async () => {
    startForm();
    await act(() => app.client.waitForConnected());
    expect(((await screen.findByLabelText(/Which commands may run/)) as HTMLSelectElement).value).toBe('deny');
    expect((screen.getByLabelText(/Time limit per command/) as HTMLInputElement).value).toBe('120000');
    // No label written for it: the key, readable, and the schema's description as the hint.
    expect(screen.getByLabelText(/^Image/)).toBeTruthy();
    expect(screen.getByText('The image commands run in.')).toBeTruthy();
    expect(screen.getByLabelText(/Environment variables commands see/).tagName).toBe('TEXTAREA');
    const entries = screen.getAllByTestId('setting-entry');
    expect(entries).toHaveLength(1);
    expect((within(entries[0]!).getByLabelText(/^Program/) as HTMLInputElement).value).toBe('git');
    expect((screen.getByLabelText(/^Network/) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('Edited in the Advanced tab.')).toBeTruthy();
  });

  it('shows its own check next to the field and sends nothing until it is fixed', async () => {
    startForm();
    await act(() => app.client.waitForConnected());
    const retries = await screen.findByLabelText(/^Retries/);
    fireEvent.change(retries, { target: { value: '9' } });
    expect(retries.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('tools.exec.retries must be at most 5');
    fireEvent.click(screen.getByRole('button', { name: 'Add to Allowed programs' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Fix the 2 marked field(s) first; nothing was sent.');
    expect(screen.getByText('tools.exec.allowlist.1.pattern')).toBeTruthy();
    expect(app.gateway.calls('config.patch')).toEqual([]);
  });

  it('saves only what changed as a merge patch against the hash it read', async () => {
    startForm({ 'config.patch': () => ({ ok: true, path: '/h/hearth.json', hash: 'h2', changedPrefixes: ['tools'] }) });
    await act(() => app.client.waitForConnected());
    fireEvent.change(await screen.findByLabelText(/Which commands may run/), { target: { value: 'full' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Allowed programs' }));
    const added = screen.getAllByTestId('setting-entry')[1]!;
    fireEvent.change(within(added).getByLabelText(/^Program/), { target: { value: 'ls' } });
    fireEvent.change(screen.getByLabelText(/Time limit per command/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.gateway.calls('config.patch')).toEqual([
        {
          baseHash: 'h1',
          patch: {
            tools: {
              exec: {
                security: 'full',
                // An optional field left empty is not written as "".
                allowlist: [{ pattern: 'git', argPattern: '^status$' }, { pattern: 'ls' }],
                timeoutMs: null,
              },
            },
          },
        },
      ]),
    );
    await screen.findByText('Saved');
  });

  it('shows the server’s refusal next to the field it names, keeping the edit', async () => {
    startForm({
      'config.patch': () => {
        throw new GatewayError('INVALID_REQUEST', 'invalid config', {
          reason: 'invalid-config',
          errors: [
            { path: 'tools.exec.allowlist.0.argPattern', message: 'argPattern is not a valid regular expression' },
          ],
        });
      },
    });
    await act(() => app.client.waitForConnected());
    const entry = (await screen.findAllByTestId('setting-entry'))[0]!;
    const arg = within(entry).getByLabelText(/^Arguments/);
    fireEvent.change(arg, { target: { value: '([' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await within(entry).findByRole('alert');
    expect(alert.textContent).toBe('tools.exec.allowlist.0.argPattern argPattern is not a valid regular expression');
    expect(arg.getAttribute('aria-invalid')).toBe('true');
    expect((arg as HTMLInputElement).value).toBe('([');
  });

  it('says so when the file changed under the edit, and keeps it for the next save', async () => {
    let hash = 'h1';
    startForm({
      'config.patch': (params) => {
        if (params.baseHash !== hash)
          throw new GatewayError('INVALID_REQUEST', 'changed', { reason: 'base-hash-mismatch' });
        return { ok: true, path: '/h/hearth.json', hash: 'h3', changedPrefixes: ['tools'] };
      },
    });
    await act(() => app.client.waitForConnected());
    hash = 'h2';
    fireEvent.change(await screen.findByLabelText(/Which commands may run/), { target: { value: 'full' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/was changed elsewhere/);
    expect((screen.getByLabelText(/Which commands may run/) as HTMLSelectElement).value).toBe('full');
  });
});
