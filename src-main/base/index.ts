export { type Clock, systemClock } from './clock.js';
export {
  type AsyncDisposable,
  AsyncDisposableStore,
  type Disposable,
  DisposableStore,
  toDisposable,
} from './disposable.js';
export { Emitter, type Event } from './emitter.js';
export {
  assertNever,
  errorMessage,
  HearthError,
  type HearthErrorCode,
  type HearthErrorOptions,
  hearthErrorCodes,
  isHearthError,
} from './errors.js';
export { createMemoryLogger, type Logger, silentLogger } from './logger.js';
export { markTurnPhase, TURN_PHASE_CHANNEL, type TurnPhase, type TurnPhaseMark } from './turn-phases.js';
