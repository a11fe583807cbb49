import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectParamsSchema } from './connect.js';
import { formatIssues } from './frames.js';
import { parseTolerant } from './tolerant-params.js';

const listParams = z
  .object({
    limit: z.number().int().min(1).max(1000).optional(),
    search: z.string().max(10).optional(),
    nested: z.object({ name: z.string() }).strict().optional(),
  })
  .strict();

describe('parseTolerant (the compatibility policy)', () => {
  it('drops unknown keys at any depth and says which', () => {
    const input = { search: 'x', includeGlobal: true, nested: { name: 'n', color: 'red' } };
    const result = parseTolerant(listParams, input);
    expect(result).toEqual({
      success: true,
      data: { search: 'x', nested: { name: 'n' } },
      ignored: ['nested.color', 'includeGlobal'],
      clamped: [],
    });
    // The caller's object is left as it was.
    expect(input).toHaveProperty('includeGlobal', true);
  });

  it('lowers a page limit above the maximum instead of refusing it', () => {
    const result = parseTolerant(listParams, { limit: 10_000 });
    expect(result).toMatchObject({ success: true, data: { limit: 1000 }, clamped: ['limit (10000 → 1000)'] });
  });

  it('keeps refusing wrong types, bad sizes, too-small limits and missing fields, naming only those', () => {
    const wrongType = parseTolerant(listParams, { limit: 'many', extra: 1 });
    expect(wrongType.success).toBe(false);
    if (!wrongType.success) expect(formatIssues(wrongType.issues)).toMatch(/^at \/limit: /);
    const tooLong = parseTolerant(listParams, { search: 'much too long a search' });
    expect(tooLong.success).toBe(false);
    const tooSmall = parseTolerant(listParams, { limit: 0 });
    expect(tooSmall.success).toBe(false);
    const missing = parseTolerant(listParams, { nested: { color: 'red' } });
    expect(missing.success).toBe(false);
    if (!missing.success) expect(formatIssues(missing.issues)).toBe("at /nested: must have required property 'name'");
  });

  it('does not clamp numbers that are not page limits', () => {
    const timeout = z.object({ timeoutMs: z.number().max(100) }).strict();
    expect(parseTolerant(timeout, { timeoutMs: 1000 }).success).toBe(false);
  });

  it("accepts OpenClaw 2026.9.6 Control UI's connect params (client.buildId, client.timeZone, modelCatalog)", () => {
    const result = parseTolerant(connectParamsSchema, {
      minProtocol: 4,
      maxProtocol: 4,
      client: {
        id: 'openclaw-control-ui',
        version: '2026.9.6',
        buildId: '2026.9.6-release-eb377ac59e6c',
        platform: 'Linux x86_64',
        mode: 'webchat',
        instanceId: 'a7a67fb6-87f0-4517-8676-49c13c26a4b1',
        timeZone: 'UTC',
      },
      role: 'operator',
      scopes: ['operator.admin'],
      modelCatalog: { sessionKey: 'main' },
      caps: ['tool-events'],
      auth: { token: 't', password: 't' },
      locale: 'en-US',
    });
    expect(result).toMatchObject({
      success: true,
      ignored: ['client.buildId', 'client.timeZone', 'modelCatalog'],
    });
    // The client id and mode stay closed enums.
    const unknownClient = parseTolerant(connectParamsSchema, {
      minProtocol: 4,
      maxProtocol: 4,
      client: { id: 'nope', version: '1', platform: 'linux', mode: 'cli' },
    });
    expect(unknownClient.success).toBe(false);
  });
});
