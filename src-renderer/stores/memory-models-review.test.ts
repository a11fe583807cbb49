import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/render-app.js';

let app: TestApp;
afterEach(() => app?.dispose());
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const tiny = {
  name: 'tiny-encoder',
  description: 'test',
  languages: ['en'],
  size: 4000,
  installed: false,
  active: false,
};

describe('memory store: local models', () => {
  it('lists models, installs one, follows its progress and the re-embed that follows', async () => {
    let installed = false;
    app = startTestApp({
      'memory.status': () => ({
        agentId: 'main',
        scope: 'per-agent',
        embedder: { id: installed ? 'onnx:tiny-encoder@abc' : 'hashed-v1:384', dimension: 16 },
      }),
      'memory.model.list': () => ({ models: [{ ...tiny, installed, active: installed }] }),
      'memory.model.install': (p) => ({ state: 'downloading', name: p.name, received: 0, total: 4000 }),
    });
    await app.client.waitForConnected();
    await settle();
    await settle();
    const memory = app.stores.memory;
    expect(memory.getState().models).toEqual([tiny]);
    expect(memory.getState().embedderId).toBe('hashed-v1:384');

    await memory.getState().installModel('tiny-encoder');
    expect(app.gateway.calls('memory.model.install')).toEqual([{ name: 'tiny-encoder' }]);
    expect(memory.getState().modelStatus).toMatchObject({ state: 'downloading' });
    app.gateway.emit('memory.changed', {
      reason: 'model',
      model: { state: 'downloading', name: 'tiny-encoder', file: 'model.onnx', received: 2000, total: 4000 },
    });
    expect(memory.getState().modelStatus).toMatchObject({ received: 2000, file: 'model.onnx' });

    installed = true;
    app.gateway.emit('memory.changed', { reason: 'model', model: { state: 'installed', name: 'tiny-encoder' } });
    app.gateway.emit('memory.changed', { agentId: 'main', progress: { phase: 'reembed', done: 1, total: 4 } });
    expect(memory.getState().reindex).toEqual({ phase: 'reembed', done: 1, total: 4 });
    app.gateway.emit('memory.changed', { agentId: 'main', progress: { phase: 'reembed', done: 4, total: 4 } });
    expect(memory.getState().reindex).toBeUndefined();
    await settle();
    await settle();
    expect(memory.getState().models[0]).toMatchObject({ installed: true, active: true });
    expect(memory.getState().embedderId).toBe('onnx:tiny-encoder@abc');
  });
});

describe('dreams store: review', () => {
  it('loads waiting candidates with their diffs, approves one and rejects another by id', async () => {
    let pending = [
      {
        id: 'aa11bb22',
        text: 'Oat milk',
        path: 'memory/x.md',
        line: 1,
        score: 0.9,
        day: 'd',
        createdAt: 0,
        diff: '+- Oat milk',
        rebased: false,
      },
      {
        id: 'cc33dd44',
        text: 'Wifi',
        path: 'memory/x.md',
        line: 2,
        score: 0.8,
        day: 'd',
        createdAt: 0,
        diff: '+- Wifi',
        rebased: true,
      },
    ];
    app = startTestApp({
      'memory.status': () => ({
        agentId: 'main',
        scope: 'per-agent',
        embedder: { id: 'hashed-v1:384', dimension: 384 },
      }),
      'dreams.status': () => ({ enabled: false, cron: '0 3 * * *', review: true, pending: pending.length }),
      'dreams.pending': () => ({ candidates: pending }),
      'dreams.review': (p) => {
        const ids = [...((p.approve as string[]) ?? []), ...((p.reject as string[]) ?? [])];
        pending = pending.filter((c) => !ids.includes(c.id));
        return {
          approved: ((p.approve as string[]) ?? []).map((id) => ({ id, text: 'x' })),
          rejected: ((p.reject as string[]) ?? []).map((id) => ({ id, text: 'x' })),
          refused: [],
          rebased: false,
        };
      },
    });
    await app.client.waitForConnected();
    const dreams = app.stores.dreams;
    await dreams.getState().refresh();
    expect(dreams.getState().status?.review).toBe(true);
    expect(dreams.getState().pending.map((c) => c.id)).toEqual(['aa11bb22', 'cc33dd44']);

    await dreams.getState().decide('aa11bb22', 'approve');
    expect(app.gateway.calls('dreams.review')).toEqual([{ agentId: 'main', approve: ['aa11bb22'] }]);
    expect(dreams.getState().pending.map((c) => c.id)).toEqual(['cc33dd44']);
    await dreams.getState().decide('cc33dd44', 'reject');
    expect(app.gateway.calls('dreams.review').at(-1)).toEqual({ agentId: 'main', reject: ['cc33dd44'] });
    expect(dreams.getState().pending).toEqual([]);
    expect(dreams.getState().deciding).toEqual([]);
  });
});
