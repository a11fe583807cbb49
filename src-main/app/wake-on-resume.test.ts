import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../base/index.js';
import { wakeOnResume } from './wake-on-resume.js';

describe('wakeOnResume', () => {
  it('asks the host to look for missed runs each time the machine resumes, until disposed', () => {
    const power = new EventEmitter();
    let wakes = 0;
    const watching = wakeOnResume(power, () => wakes++, createMemoryLogger());
    power.emit('resume');
    power.emit('resume');
    expect(wakes).toBe(2);
    watching.dispose();
    power.emit('resume');
    expect(wakes).toBe(2);
    expect(power.listenerCount('resume')).toBe(0);
  });

  it('a failing wake is logged, never thrown into Electron’s event loop', () => {
    const power = new EventEmitter();
    const logger = createMemoryLogger();
    const watching = wakeOnResume(
      power,
      () => {
        throw new Error('scheduler stopped');
      },
      logger,
    );
    expect(() => power.emit('resume')).not.toThrow();
    expect(JSON.stringify(logger.entries)).toContain('scheduler stopped');
    watching.dispose();
  });
});
