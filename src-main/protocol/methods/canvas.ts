import { method } from './define.js';

// Methods of the `canvas` namespace. Filled in by the capability that owns them.
void method;
export const canvasMethods = {};

/** What the gateway's empty-canvas page posts to the app framing it, so the app shows its own empty state. */
export const CANVAS_EMPTY_MESSAGE = 'hearth.canvas.empty';
