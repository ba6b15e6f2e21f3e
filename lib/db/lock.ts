// One process per embedded data directory: `gatehouse.lock` holds the owner's pid. A live owner
// means refusal (DatabaseLockedError); a dead one's lock is taken over. Released on close and exit.
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseLockedError } from './errors';

export const LOCK_FILE = 'gatehouse.lock';

/** A takeover that crashed half-way leaves its mutex directory behind; older than this, it is ignored. */
const TAKEOVER_STALE_MS = 10_000;

export interface DataDirLock {
  readonly file: string;
  release(): Promise<void>;
}

interface Held {
  files: Set<string>;
  exitHookInstalled: boolean;
}

// On globalThis so that every copy of this module in the process (Next dev reloads) sees the same set.
const processGlobal = globalThis as typeof globalThis & { __gatehouseDbLocks?: Held };
const held = (processGlobal.__gatehouseDbLocks ??= { files: new Set<string>(), exitHookInstalled: false });

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readPid(content: string | undefined): number | undefined {
  const pid = Number(content?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function readLock(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates the lock file atomically with its content: write a private file, then hard-link it into place. */
async function tryCreate(file: string): Promise<boolean> {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, `${process.pid}\n`, { flag: 'wx' });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A filesystem without hard links: exclusive create, with a moment where the file is empty.
    return writeFile(file, `${process.pid}\n`, { flag: 'wx' }).then(
      () => true,
      (fallbackError: NodeJS.ErrnoException) => {
        if (fallbackError.code === 'EEXIST') return false;
        throw fallbackError;
      },
    );
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Removes a stale lock, but only if it still holds `staleContent`: under a mutex directory, so two
 * processes taking over at once cannot delete each other's fresh lock.
 */
async function removeStale(file: string, staleContent: string): Promise<void> {
  const mutex = `${file}.takeover`;
  try {
    await mkdir(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = await stat(mutex).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > TAKEOVER_STALE_MS) await rmdir(mutex).catch(() => undefined);
    else await sleep(20);
    return;
  }
  try {
    if ((await readLock(file)) === staleContent) await unlink(file);
  } finally {
    await rmdir(mutex).catch(() => undefined);
  }
}

function installExitHook(): void {
  if (held.exitHookInstalled) return;
  held.exitHookInstalled = true;
  // Only synchronous work is possible here. A process killed by a signal leaves its lock behind;
  // the next start sees a dead pid and takes it over.
  process.on('exit', () => {
    for (const file of held.files) {
      try {
        if (readPid(readFileSync(file, 'utf8')) === process.pid) unlinkSync(file);
      } catch {
        // Nothing left to do at exit.
      }
    }
  });
}

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE);
  await mkdir(dataDir, { recursive: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await tryCreate(file)) {
      held.files.add(file);
      installExitHook();
      return { file, release: () => releaseLock(file) };
    }
    const content = await readLock(file);
    if (content === undefined) continue; // released meanwhile
    const pid = readPid(content);
    // Our own pid counts as stale unless we hold the lock: a container restart reuses small pids.
    const live = pid !== undefined && (pid === process.pid ? held.files.has(file) : isProcessAlive(pid));
    if (live) throw new DatabaseLockedError(dataDir, pid, file);
    await removeStale(file, content);
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing hands`);
}

async function releaseLock(file: string): Promise<void> {
  if (!held.files.delete(file)) return;
  if (readPid(await readLock(file)) === process.pid) await unlink(file).catch(() => undefined);
}
