export { CANVAS_EXTENSIONS, CanvasPathError } from './canvas-path.js';
export { CANVAS_MAX_READ_CHARS, CANVAS_MAX_WRITE_BYTES, canvasDirOf, createCanvasTools } from './canvas-tools.js';
