import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../base/module-worker.js';
import { type Embedder, EmbedderError } from './embedder.js';
import type { OnnxWorkerReply, OnnxWorkerRequest } from './onnx-embedder-worker.js';
import { findModelFiles, type OnnxEmbedderOptions } from './onnx-model.js';

export type { OnnxEmbedderOptions } from './onnx-model.js';

/**
 * The local ONNX embedder (`onnx-model.ts` says what it runs). The model lives in a worker thread,
 * so indexing a few thousand chunks never stalls the gateway; this side only checks the folder,
 * sends batches and hands back vectors. Errors keep the model's own words.
 */
export async function createOnnxEmbedder(options: OnnxEmbedderOptions): Promise<Embedder & { close(): Promise<void> }> {
  // Missing files are said at once, before a thread is started.
  await findModelFiles(options.modelDir);
  const worker = startWorker(options);
  const pending = new Map<number, { resolve(vectors: Float32Array[]): void; reject(error: Error): void }>();
  let nextRequest = 0;
  let stopped: Error | undefined;
  // The thread keeps the process alive only while it owes an answer: an idle embedder never
  // holds Hearth (or a CLI command) open, and a command waiting for vectors is not cut short.
  const settle = (requestId: number) => {
    pending.delete(requestId);
    if (pending.size === 0) worker.unref();
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiter of pending.values()) waiter.reject(stopped);
    pending.clear();
  };

  const ready = new Promise<{ id: string; dimension: number }>((resolve, reject) => {
    worker.on('message', (reply: OnnxWorkerReply) => {
      switch (reply.type) {
        case 'ready':
          resolve(reply);
          return;
        case 'failed':
          reject(new EmbedderError(reply.message));
          return;
        case 'vectors':
          pending.get(reply.requestId)?.resolve(reply.vectors);
          settle(reply.requestId);
          return;
        case 'error':
          pending.get(reply.requestId)?.reject(new EmbedderError(reply.message));
          settle(reply.requestId);
      }
    });
    worker.on('error', (error) => {
      const failure = new EmbedderError(`onnx embedder thread failed: ${error.message}`);
      reject(failure);
      stop(failure);
    });
    worker.on('exit', (code) => {
      const failure = new EmbedderError(`onnx embedder thread exited (code ${code})`);
      reject(failure);
      stop(failure);
    });
  });
  let model: { id: string; dimension: number };
  try {
    model = await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();

  const batchSize = options.batchSize ?? 16;
  const embedBatch = (texts: string[]) =>
    new Promise<Float32Array[]>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const requestId = ++nextRequest;
      if (pending.size === 0) worker.ref();
      pending.set(requestId, { resolve, reject });
      worker.postMessage({ type: 'embed', requestId, texts } satisfies OnnxWorkerRequest);
    });

  return {
    id: model.id,
    dimension: model.dimension,
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        if (signal?.aborted) throw signal.reason ?? new Error('embedding aborted');
        out.push(...(await embedBatch(texts.slice(i, i + batchSize))));
      }
      return out;
    },
    async close() {
      stop(new EmbedderError('onnx embedder is closed'));
      await worker.terminate();
    },
  };
}

/** The compiled `.js` in a build or the bundle, the `.ts` through tsx from the sources. */
function startWorker(options: OnnxEmbedderOptions): Worker {
  return startModuleWorker(import.meta.url, 'onnx-embedder-worker', options);
}
