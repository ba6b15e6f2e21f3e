// A second process for the lock tests: `node --import tsx child.ts <mode> <dataDir>`.
// lock: take the lock, print "acquired" or the error code, hold it until stdin closes.
// open: openDatabase on the dir and print the outcome. exit: take the lock and exit without releasing it.
import { DatabaseLockedError } from '../errors';
import { acquireDataDirLock } from '../lock';
import { openDatabase } from '../open';

const [mode, dataDir] = process.argv.slice(2);
if (!mode || !dataDir) throw new Error('usage: child.ts <lock|open|exit> <dataDir>');

function report(error: unknown): never {
  if (error instanceof DatabaseLockedError) {
    console.log(JSON.stringify({ result: 'locked', holderPid: error.holderPid, message: error.message }));
    process.exit(3);
  }
  console.log(JSON.stringify({ result: 'error', message: String(error) }));
  process.exit(1);
}

if (mode === 'open') {
  const handle = await openDatabase({ dataDir }).catch(report);
  console.log(JSON.stringify({ result: 'opened' }));
  await handle.close();
} else {
  const lock = await acquireDataDirLock(dataDir).catch(report);
  console.log(JSON.stringify({ result: 'acquired', pid: process.pid }));
  if (mode === 'exit') process.exit(0);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await lock.release();
}
