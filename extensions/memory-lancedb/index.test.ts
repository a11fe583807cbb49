import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/base/logger.js';
import type { HearthPluginApi, MemoryBackendContribution } from '../../src-main/plugins/sdk/index.js';
import plugin, { lanceDbMemoryBackend } from './index.js';

describe('memory-lancedb plugin', () => {
  it('registers the LanceDB memory backend under its id', async () => {
    const registered: MemoryBackendContribution[] = [];
    const refuse = () => {
      throw new Error('memory-lancedb registers only a memory backend');
    };
    const api: HearthPluginApi = {
      pluginId: 'memory-lancedb',
      config: {},
      log: silentLogger,
      registerMemoryBackend: (backend) => {
        registered.push(backend);
        return { dispose() {} };
      },
      registerTool: refuse,
      registerModelProvider: refuse,
      registerChannel: refuse,
      registerContextEngine: refuse,
      registerCliBackend: refuse,
      registerGatewayMethod: refuse,
      registerBootstrapFilesHook: refuse,
    };
    await plugin.register(api);
    expect(plugin.id).toBe('memory-lancedb');
    expect(registered.map((item) => item.id)).toEqual(['memory-lancedb']);
    const backend = await registered[0]!.create({
      pluginId: 'memory-lancedb',
      config: {},
      log: silentLogger,
      home: '/tmp',
    });
    expect(backend).toBe(lanceDbMemoryBackend);
  });
});
