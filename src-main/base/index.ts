export { type Clock, systemClock } from './clock.js';
export {
  type AsyncDisposable,
  AsyncDisposableStore,
  type Disposable,
  DisposableStore,
  toDisposable,
} from './disposable.js';
export { Emitter, type Event } from './emitter.js';
export { assertNever, errorMessage } from './errors.js';
export { createMemoryLogger, type Logger, silentLogger } from './logger.js';
