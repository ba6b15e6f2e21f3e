// Test support for the seed examples: runs one as a person would in a terminal (its own process,
// each answer typed only once its question is on screen) in a scratch workspace.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Generous: a program's start under tsx takes 1-3 s on a busy 2-core machine. */
const BUDGET_MS = 30_000;

export interface Terminal {
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once `text` is printed after the previous match; rejects, with the output, at the exit or after the budget. */
  waitFor(text: string): Promise<void>;
  type(line: string): void;
  /** The exit code once the program ended; after the budget it is killed and this rejects. */
  exited(): Promise<number | null>;
  kill(): void;
}

export async function scratchWorkspace(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-seed-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function runExample(file: string, env: Record<string, string>): Terminal {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, GATEHOUSE_MODEL: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let seen = 0;
  let ended = false;
  const changed = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    changed.forEach((check) => check());
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      resolve(code);
      changed.forEach((check) => check());
    }),
  );

  return {
    output: () => output,
    waitFor(text) {
      return new Promise<void>((resolve, reject) => {
        const stop = (then: () => void) => {
          clearTimeout(timer);
          changed.delete(check);
          then();
        };
        const check = () => {
          const at = output.indexOf(text, seen);
          if (at >= 0) stop(() => ((seen = at + text.length), resolve()));
          else if (ended)
            stop(() =>
              reject(new Error(`The program ended before printing ${JSON.stringify(text)}. Output:\n${output}`)),
            );
        };
        const timer = setTimeout(
          () => stop(() => reject(new Error(`No ${JSON.stringify(text)} within ${BUDGET_MS} ms. Output:\n${output}`))),
          BUDGET_MS,
        );
        changed.add(check);
        check();
      });
    },
    type(line) {
      child.stdin.write(`${line}\n`);
    },
    exited() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`Still running after ${BUDGET_MS} ms. Output:\n${output}`));
        }, BUDGET_MS);
        void exit.then((code) => (clearTimeout(timer), resolve(code)));
      });
    },
    kill() {
      if (!ended) child.kill('SIGKILL');
    },
  };
}
