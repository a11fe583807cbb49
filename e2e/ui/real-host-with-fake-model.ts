import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeLlmServer, startFakeLlmServer } from '../../src-main/testing/fake-llm/index.js';
import { connectRaw } from '../../src-main/testing/raw-gateway-socket.js';
import { createTempHome } from '../../src-main/testing/temp-home.js';
import { startTestHost, type TestHost } from '../../src-main/testing/test-host.js';

export interface RealHostWithFakeModel {
  llm: FakeLlmServer;
  host: TestHost;
  home: string;
  close(): Promise<void>;
}

export interface RealHostOptions {
  /** Prefix of the temp HEARTH_HOME, so a leftover folder says which spec made it. */
  homePrefix: string;
  /** The built Control UI the host serves. */
  controlUiDir: string;
  /** The API key saved as the OpenAI auth profile; each spec its own, so a leak names its spec. */
  secret: string;
  label?: string;
}

/**
 * The real composed host on a loopback port, its only fake a model server speaking the OpenAI
 * wire format: OpenAI configured as the default model with recall off (the specs assert on what
 * the person sees, not on memory), and a key saved through the gateway as the app itself saves it.
 * Nothing leaves the machine: close() fails naming any non-loopback request the host tried.
 */
export async function startRealHostWithFakeModel(options: RealHostOptions): Promise<RealHostWithFakeModel> {
  const llm = await startFakeLlmServer();
  const temp = await createTempHome(options.homePrefix);
  let host: TestHost | undefined;
  const close = async () => {
    // The test host refused these already (loopback-fetch-guard.ts); a spec on the fake model
    // has no reason to try, so trying fails the spec instead of passing quietly offline.
    const refused = [...(host?.refusedRequests ?? [])];
    await host?.close();
    await llm.close();
    await temp.cleanup();
    if (refused.length > 0)
      throw new Error(`the host tried to leave loopback (tests stay on loopback): ${refused.join(', ')}`);
  };
  try {
    await writeFile(
      join(temp.home, 'hearth.json'),
      JSON.stringify({
        providers: { openai: { kind: 'openai', baseURL: llm.baseUrlFor('openai') } },
        agents: { defaults: { model: 'openai/gpt-4o' } },
        memory: { recall: { enabled: false } },
      }),
    );
    host = await startTestHost({
      home: temp.home,
      controlUiDir: options.controlUiDir,
      env: { ...process.env, HEARTH_SECRET_STORE: 'file' },
    });
    const { socket } = await connectRaw(host.wsUrl, { token: host.token, scopes: ['operator.admin'] });
    try {
      const added = await socket.request('auth.profiles.set', {
        id: 'openai-e2e',
        provider: 'openai',
        type: 'api_key',
        secret: options.secret,
        ...(options.label ? { label: options.label } : {}),
      });
      if (!added.ok) throw new Error(`auth.profiles.set failed: ${JSON.stringify(added.error)}`);
    } finally {
      socket.close();
    }
    return { llm, host, home: temp.home, close };
  } catch (error) {
    await close();
    throw error;
  }
}
