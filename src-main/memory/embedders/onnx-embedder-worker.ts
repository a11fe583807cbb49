import { parentPort, workerData } from 'node:worker_threads';
import { loadOnnxModel, type OnnxEmbedderOptions } from './onnx-model.js';

/**
 * The ONNX embedder's thread. Inference is synchronous WebAssembly: run on the gateway's thread,
 * a batch through a real model would hold every socket, approval and stream for hundreds of
 * milliseconds. Here it only holds this thread. Protocol (see onnx-embedder.ts): one `ready` or
 * `failed` after loading, then one `vectors` or `error` per `embed` request, in order.
 */
export type OnnxWorkerRequest = { type: 'embed'; requestId: number; texts: string[] };
export type OnnxWorkerReply =
  | { type: 'ready'; id: string; dimension: number }
  | { type: 'failed'; message: string }
  | { type: 'vectors'; requestId: number; vectors: Float32Array[] }
  | { type: 'error'; requestId: number; message: string };

const port = parentPort;
if (!port) throw new Error('onnx-embedder-worker.ts runs only as a worker thread');
const say = (reply: OnnxWorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

try {
  const model = await loadOnnxModel(workerData as OnnxEmbedderOptions);
  // Requests are answered one after another: the session is one piece of single-threaded state.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: OnnxWorkerRequest) => {
    queue = queue.then(async () => {
      try {
        const vectors = await model.embedBatch(request.texts);
        say(
          { type: 'vectors', requestId: request.requestId, vectors },
          vectors.map((vector) => vector.buffer as ArrayBuffer),
        );
      } catch (error) {
        say({ type: 'error', requestId: request.requestId, message: reason(error) });
      }
    });
  });
  say({ type: 'ready', id: model.id, dimension: model.dimension });
} catch (error) {
  say({ type: 'failed', message: reason(error) });
}
