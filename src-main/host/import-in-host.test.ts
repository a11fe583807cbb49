import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClawKeys, openClawSessionIds, writeOpenClawFixture } from '../import/testing/openclaw-fixture.js';
import type { ImportReportView } from '../protocol/methods/import.js';
import { type ProductFixture, startProductFixture } from '../testing/product-fixture.js';
import { createTempHome } from '../testing/temp-home.js';

// The onboarding button's path: import.* through a running gateway lands in the live stores, so
// the chat list, auth profiles and scheduler show the imported things without a restart.

let product: ProductFixture;
let person: { home: string; cleanup(): Promise<void> };

beforeAll(async () => {
  person = await createTempHome('hearth-person-');
  await writeOpenClawFixture(join(person.home, '.openclaw'));
  product = await startProductFixture({ env: { HOME: person.home } });
});
afterAll(async () => {
  await product?.close();
  await person?.cleanup();
});

describe('import through the gateway', () => {
  it('detects OpenClaw, plans, applies into the live stores, and a second apply imports nothing', async () => {
    const detected = await product.socket.request('import.detect', {});
    expect(detected.payload).toEqual({
      sources: [
        { source: 'openclaw', from: join(person.home, '.openclaw'), found: true },
        { source: 'hermes', from: join(person.home, '.hermes'), found: false },
      ],
    });

    const plan = (await product.socket.request('import.plan', { source: 'openclaw' })).payload as {
      report: ImportReportView;
    };
    expect(plan.report.applied).toBe(false);
    expect(plan.report.counts.import).toBeGreaterThan(20);
    expect(JSON.stringify(plan)).not.toContain(openClawKeys.anthropic);

    const applied = await product.socket.request('import.apply', { source: 'openclaw' });
    expect(applied.error).toBeUndefined();
    const report = (applied.payload as { report: ImportReportView }).report;
    expect(report.items.filter((i) => i.status === 'failed')).toEqual([]);
    // The fixture's hearth.json already names a model: Hearth's is kept.
    expect(report.items.find((i) => i.kind === 'model')?.status).toBe('conflict');

    const sessions = await product.socket.request('sessions.list', { agentId: 'main' });
    expect(JSON.stringify(sessions.payload)).toContain(`agent:main:openclaw-${openClawSessionIds.telegram}`);
    const profiles = await product.socket.request('auth.profiles.list', {});
    expect(profiles.payload).toMatchObject({
      profiles: expect.arrayContaining([expect.objectContaining({ id: 'openclaw-anthropic-default', status: 'ok' })]),
    });
    const jobs = await product.socket.request('cron.list', {});
    expect(JSON.stringify(jobs.payload)).toContain('Morning brief');
    const raw = await readFile(join(product.home, 'hearth.json'), 'utf8');
    for (const key of Object.values(openClawKeys)) expect(raw).not.toContain(key);
    expect(JSON.parse(raw).agents.list).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'dev' })]));

    const again = (await product.socket.request('import.apply', { source: 'openclaw' })).payload as {
      report: ImportReportView;
    };
    expect(again.report.counts.imported).toBe(0);
  });

  it('answers an invalid request for a tool that is not on this machine', async () => {
    const answer = await product.socket.request('import.plan', { source: 'hermes' });
    expect(answer.error?.message).toMatch(/does not look like a Hermes folder/);
  });
});
