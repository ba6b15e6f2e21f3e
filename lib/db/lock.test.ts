import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseLockedError } from './errors';
import { acquireDataDirLock, isProcessAlive, LOCK_FILE } from './lock';
import { openDatabase } from './open';

const CHILD = fileURLToPath(new URL('./test-support/child.ts', import.meta.url));

let dir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-lock-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, LOCK_FILE);

function startChild(mode: 'lock' | 'open' | 'exit'): {
  child: ChildProcess;
  line: Promise<{ result: string; holderPid?: number; message?: string }>;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const line = new Promise<{ result: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(out.slice(0, newline)));
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${code} before reporting`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, line, exited };
}

/** A pid that belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('data-dir lock', () => {
  it('writes our pid and removes the file on release', async () => {
    const lock = await acquireDataDirLock(dir);
    expect((await readFile(lockFile(), 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
    await expect(readFile(lockFile())).rejects.toMatchObject({ code: 'ENOENT' });
    await lock.release(); // idempotent
  });

  it('refuses a directory whose lock holds a live pid, naming it', async () => {
    const sleeper = spawn('sleep', ['30']);
    children.push(sleeper);
    await writeFile(lockFile(), `${sleeper.pid}\n`);
    const error = await acquireDataDirLock(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseLockedError);
    expect(error).toMatchObject({ holderPid: sleeper.pid, dataDir: dir, code: 'database_locked' });
    expect((error as Error).message).toContain(`in use by process ${sleeper.pid}`);
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
    expect((await readFile(lockFile(), 'utf8')).trim()).toBe(String(sleeper.pid));
  });

  it.each([
    ['a dead pid', async () => `${await deadPid()}\n`],
    ['garbage', async () => 'not a pid'],
    ['an empty file', async () => ''],
    ['our own pid left by an earlier life (pid reuse after a restart)', async () => `${process.pid}\n`],
  ])('takes over a stale lock holding %s', async (_name, content) => {
    await writeFile(lockFile(), await content());
    const lock = await acquireDataDirLock(dir);
    expect((await readFile(lockFile(), 'utf8')).trim()).toBe(String(process.pid));
    await lock.release();
  });

  it('refuses a second lock in the same process while the first is held', async () => {
    const lock = await acquireDataDirLock(dir);
    await expect(acquireDataDirLock(dir)).rejects.toBeInstanceOf(DatabaseLockedError);
    await lock.release();
  });

  it('tells live from dead processes', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(await deadPid())).toBe(false);
  });
});

describe('data-dir lock across processes', () => {
  it('refuses a second process opening the same directory', async () => {
    const lock = await acquireDataDirLock(dir);
    try {
      const { line, exited } = startChild('open');
      expect(await line).toMatchObject({ result: 'locked', holderPid: process.pid });
      expect(await exited).toBe(3);
    } finally {
      await lock.release();
    }
  }, 30_000);

  it('lets exactly one of several processes take over a stale lock', async () => {
    await writeFile(lockFile(), `${await deadPid()}\n`);
    const racers = [startChild('lock'), startChild('lock'), startChild('lock')];
    const results = await Promise.all(racers.map((r) => r.line));
    expect(results.filter((r) => r.result === 'acquired')).toHaveLength(1);
    expect(results.filter((r) => r.result === 'locked')).toHaveLength(2);
    for (const r of racers) r.child.stdin!.end();
    await Promise.all(racers.map((r) => r.exited));
    await expect(readFile(lockFile())).rejects.toMatchObject({ code: 'ENOENT' });
  }, 30_000);

  it('releases the lock when the holder exits without closing', async () => {
    const { line, exited } = startChild('exit');
    expect(await line).toMatchObject({ result: 'acquired' });
    expect(await exited).toBe(0);
    await expect(readFile(lockFile())).rejects.toMatchObject({ code: 'ENOENT' });
  }, 30_000);
});
