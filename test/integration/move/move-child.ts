/**
 * Child process for the killed-move test: opens a library host on DATA_DIR, starts a move to TARGET and kills
 * itself with SIGKILL just before the KILL_AT-th file is copied (after the earlier ones are on disk), or, with
 * KILL_AT=db, once the database is copied and before anything is verified.
 */
import { startHost } from './helpers.js';

const killAt = process.env['KILL_AT'] === 'db' ? Infinity : Number(process.env['KILL_AT']);
let files = 0;
const host = await startHost({
  dataDir: process.env['DATA_DIR']!,
  hooks: {
    beforeFile: () => {
      files += 1;
      if (files === killAt) process.kill(process.pid, 'SIGKILL');
    },
    afterDatabaseCopy: () => {
      if (killAt === Infinity) process.kill(process.pid, 'SIGKILL');
    },
  },
});
await host.handlers['library.move.start']({ target: process.env['TARGET']! });
await host.settled();
process.stdout.write('the move finished: it should have been killed\n');
process.exit(3);
