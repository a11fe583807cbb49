import { silentLogger, systemClock } from '../base/index.js';
import { createHearthPaths } from '../paths/index.js';
import { createSessionStore } from '../sessions/session-store.js';

/**
 * A child process for the crash test: appends big messages to the main session
 * as fast as it can, announcing each one, until the test kills it with SIGKILL.
 * Usage: node --import tsx sessions-append-until-killed.ts <HEARTH_HOME>
 */
const home = process.argv[2];
if (!home) throw new Error('usage: append-until-killed.ts <HEARTH_HOME>');
const store = createSessionStore({ paths: createHearthPaths(home), clock: systemClock, log: silentLogger });
const session = await store.resolve('main', 'main');
process.stdout.write(`session ${session.sessionId}\n`);
// Large lines make a write more likely to be cut short by the kill.
const filler = 'x'.repeat(512 * 1024);
for (let i = 0; ; i++) {
  await store.append('main', session.sessionId, [{ kind: 'user', id: `m${i}`, ts: i, text: `${i} ${filler}` }]);
  if (i % 4 === 0) await store.sync('main', session.sessionId);
  process.stdout.write(`appended ${i}\n`);
}
