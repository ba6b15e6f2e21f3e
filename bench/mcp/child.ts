// Starts one of bench:mcp's servers as a process of its own (node, no tsx loader, as Gatehouse's
// server runs) and waits for the port it prints once listening. Killed when the benchmark exits.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  port: string;
  close(): Promise<void>;
}

export async function startChildServer(script: string, args: string[] = []): Promise<ChildServer> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), script);
  const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Never left behind, whatever ends the benchmark.
  process.once('exit', () => child.kill());
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
