import { type Disposable, Emitter } from '../base/index.js';
import type { EventName, EventPayloads } from '../protocol/index.js';
import type { CallerIdentity } from './caller.js';

export interface PublishOptions {
  /** Narrows delivery beyond the event's scope audience (e.g. only the requester). */
  to?: (caller: CallerIdentity) => boolean;
  /** Droppable events may be skipped for a slow consumer instead of closing it. */
  droppable?: boolean;
}

export interface PublishedEvent {
  event: EventName;
  payload: unknown;
  options: PublishOptions;
}

/** Capabilities publish here; the gateway fans out to connections whose scopes allow it. */
export interface EventBus {
  publish<E extends EventName>(event: E, payload: EventPayloads[E], options?: PublishOptions): void;
}

export class GatewayEventBus implements EventBus, Disposable {
  private readonly didPublish = new Emitter<PublishedEvent>();
  readonly onDidPublish = this.didPublish.event;

  publish<E extends EventName>(event: E, payload: EventPayloads[E], options: PublishOptions = {}): void {
    this.didPublish.fire({ event, payload, options });
  }

  dispose(): void {
    this.didPublish.dispose();
  }
}
