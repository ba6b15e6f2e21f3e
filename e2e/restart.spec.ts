// Durability: a run paused on a relay survives `kill -9` of the server. A new process on the same
// data directory resumes it, the decision arrives, the run finishes, and the tool ran once. And a
// graceful stop (SIGTERM, as `npm start` handles it): the server ends its streams, settles nothing,
// closes the embedded database and exits 143; the next start resumes the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminAuthHeaders, E2E_ADMIN_TOKEN } from './support/auth';
import { seededDataDir } from './support/data-dir';
import { SseReader } from './support/sse';

const port = Number(process.env.E2E_RESTART_PORT ?? 3190);
const base = `http://127.0.0.1:${port}`;

function startServer(dataDir: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      env: {
        ...process.env,
        ...env,
        GATEHOUSE_DATA_DIR: dataDir,
        GATEHOUSE_MODEL: 'offline',
        GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: 'ignore',
    },
  );
}

async function waitHealthy(): Promise<void> {
  for (;;) {
    const ok = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => child.once('exit', r));
}

test('a paused run survives kill -9 and finishes after the restart, the tool executed once', async () => {
  test.setTimeout(90_000);
  const dataDir = await seededDataDir('gatehouse-restart-');
  let server = startServer(dataDir);
  try {
    await waitHealthy();
    const { events } = await SseReader.open(`${base}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: '$ echo ran >> executions.log' }] }),
    });
    const { runId, sessionId } = (await events.until('connected')).data as { runId: string; sessionId: string };
    const relay = (await events.until('relay')).data as { id: string };

    server.kill('SIGKILL');
    await exited(server);
    server = startServer(dataDir);
    await waitHealthy();

    const decided = await fetch(`${base}/api/chat/relay/${relay.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
      body: JSON.stringify({ sessionId, response: { approved: true } }),
    });
    expect(decided.status).toBe(200);
    const followed = await SseReader.open(`${base}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
    const all = await followed.events.rest();
    expect(all.map((e) => e.event)).toEqual(
      expect.arrayContaining(['relay', 'resumed', 'relay_resolved', 'tool_result', 'done']),
    );
    expect(all.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({ status: 'approved' });
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1));
    expect(readFileSync(path.join(dataDir, 'workspace', 'executions.log'), 'utf8')).toBe('ran\n');
    const audit = await (await fetch(`${base}/api/audit?runId=${runId}`, { headers: adminAuthHeaders() })).json();
    expect(audit.items.map((a: { action: string }) => a.action).sort()).toEqual(['allow', 'ask']);
  } finally {
    server.kill('SIGKILL');
    await exited(server);
  }
});

test('SIGTERM: the server stops gracefully (streams end, nothing settled, exit 143); the next start resumes the run', async () => {
  test.setTimeout(90_000);
  const dataDir = await seededDataDir('gatehouse-sigterm-');
  let server = startServer(dataDir, { NEXT_MANUAL_SIG_HANDLE: 'true' });
  try {
    await waitHealthy();
    const { events } = await SseReader.open(`${base}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: '$ echo graceful >> executions.log' }] }),
    });
    const { runId, sessionId } = (await events.until('connected')).data as { runId: string; sessionId: string };
    const relay = (await events.until('relay')).data as { id: string };

    const code = new Promise<number | null>((resolve) => server.once('exit', (c) => resolve(c)));
    server.kill('SIGTERM');
    // The open stream ends without `done` (the client would reconnect), and the process exits.
    expect((await events.rest()).map((e) => e.event)).not.toContain('done');
    expect(await code).toBe(143);

    server = startServer(dataDir);
    await waitHealthy();
    const run = await (await fetch(`${base}/api/runs/${runId}`, { headers: adminAuthHeaders() })).json();
    expect(run).toMatchObject({ run: { status: 'waiting' }, pendingRelays: [{ id: relay.id }] });
    const decided = await fetch(`${base}/api/chat/relay/${relay.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
      body: JSON.stringify({ sessionId, response: { approved: true } }),
    });
    expect(decided.status).toBe(200);
    const all = await (
      await SseReader.open(`${base}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } })
    ).events.rest();
    expect(all.map((e) => e.event)).toEqual([
      'tool_call',
      'relay',
      'resumed',
      'relay_resolved',
      'tool_result',
      'text',
      'done',
    ]);
    expect(readFileSync(path.join(dataDir, 'workspace', 'executions.log'), 'utf8')).toBe('graceful\n');
  } finally {
    server.kill('SIGKILL');
    await exited(server);
  }
});
