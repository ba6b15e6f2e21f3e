// What the tests of scripts/gatehouse-hook.mjs share (Gemini CLI's and Codex CLI's hook command): a
// local stand-in for Gatehouse that records what the script sent and answers as a test says, and
// the script (or the settings' shell line) run with a hook input on stdin.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export const SCRIPT = path.join(__dirname, 'gatehouse-hook.mjs');

export type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface HookTarget {
  /** Base URL of the stand-in (set once it listens). */
  base(): string;
  /** What it received since the test began. */
  seen: { url: string; authorization?: string; body: string }[];
  /** How it answers the next requests. */
  reply: Reply;
}

/** Starts the stand-in for this test file (vitest hooks at the file's top level). */
export function hookTarget(): HookTarget {
  let server: http.Server;
  let base = '';
  const target: HookTarget = { base: () => base, seen: [], reply: json(500, 'no reply set') };
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        target.seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
        target.reply(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    target.seen.length = 0;
  });
  return target;
}

export const json =
  (status: number, body: unknown): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

/**
 * Runs `argv` (the script's arguments, or a whole command line through `shell -c`, as the CLI runs
 * it) with `input` on stdin; its exit code and output.
 */
export function runHook(
  argv: string[] | string,
  input: string,
  { shell, vars = { GATEHOUSE_TOKEN: 'tok-1' } }: { shell: string; vars?: Record<string, string> },
) {
  const env = { PATH: process.env.PATH, ...vars } as unknown as NodeJS.ProcessEnv;
  const child =
    typeof argv === 'string'
      ? spawn(shell, ['-c', argv], { env })
      : spawn(process.execPath, [SCRIPT, ...argv], { env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  // A command that ends before reading its input (a script that cannot start) closes the pipe.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}
