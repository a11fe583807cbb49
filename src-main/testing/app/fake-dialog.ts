import type { ApprovalBoxOptions } from '../../app/approval-dialog.js';

export interface OpenBox {
  window: unknown;
  options: ApprovalBoxOptions;
  closed: boolean;
  /** The user clicks a button. */
  press(label: string): void;
  /** The user presses Escape: Electron answers with `cancelId`. */
  escape(): void;
}

/**
 * Behaves like Electron's dialog.showMessageBox for the parts the shell relies on:
 * the promise settles when a button is pressed, Escape gives `cancelId`, and
 * aborting `options.signal` closes the box, which also answers `cancelId`.
 */
export function createFakeDialog() {
  const boxes: OpenBox[] = [];
  const showMessageBox = (window: unknown, options: ApprovalBoxOptions): Promise<{ response: number }> =>
    new Promise((resolve) => {
      const box: OpenBox = {
        window,
        options,
        closed: false,
        press(label) {
          const index = options.buttons.indexOf(label);
          if (index < 0) throw new Error(`no button ${label}`);
          finish(index);
        },
        escape: () => finish(options.cancelId),
      };
      const finish = (response: number) => {
        if (box.closed) return;
        box.closed = true;
        resolve({ response });
      };
      options.signal.addEventListener('abort', () => finish(options.cancelId), { once: true });
      boxes.push(box);
    });
  return {
    boxes,
    showMessageBox,
    get open(): OpenBox[] {
      return boxes.filter((box) => !box.closed);
    },
  };
}
