// The ask path's writes, before and after they became one statement per event, on the embedded
// PGlite (same process, interleaved, so machine load hits both alike). Run:
//   npx tsx bench/event-append.bench.ts          (BENCH_APPEND_ROUNDS=400 by default)
// "before": what the run manager did for a tool_call and its relay event until now: audit INSERT,
// then BEGIN / UPDATE runs (seq) / INSERT event / COMMIT; run status UPDATE, then the same append.
// "after": `appendEvent({ ..., audit })` and `appendEvent({ ..., status })`: one statement each.
// Both also insert the relay row first, as the agent does before announcing it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { LIVE_RUN_STATUSES } from '../lib/contract';
import { createQueries, openDatabase, type Queries } from '../lib/db';
import { events, runs } from '../lib/db/schema';
import type { Database } from '../lib/db';

const ROUNDS = Number(process.env.BENCH_APPEND_ROUNDS ?? 400);

async function before(db: Database, q: Queries, runId: string): Promise<void> {
  const append = (type: string, data: Record<string, unknown>) =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(runs)
        .set({ lastEventSeq: sql`${runs.lastEventSeq} + 1` })
        .where(eq(runs.id, runId))
        .returning({ last: runs.lastEventSeq });
      await tx.insert(events).values({ runId, seq: row!.last, type, data }).returning();
    });
  await q.relays.insertRelay({ request: relayRequest(runId) });
  await q.audit.recordAudit({ kind: 'decision', runId, tool: 'bash', params: { command: 'date' }, action: 'ask' });
  await append('tool_call', { name: 'bash' });
  await q.runs.updateRun({ id: runId, status: 'waiting', ifStatus: [...LIVE_RUN_STATUSES] });
  await append('relay', { id: 'x' });
}

async function after(q: Queries, runId: string): Promise<void> {
  await q.relays.insertRelay({ request: relayRequest(runId) });
  await q.events.appendEvent({
    runId,
    type: 'tool_call',
    data: { name: 'bash' },
    audit: [{ kind: 'decision', runId, tool: 'bash', params: { command: 'date' }, action: 'ask' }],
  });
  await q.events.appendEvent({
    runId,
    type: 'relay',
    data: { id: 'x' },
    status: { to: 'waiting', ifStatus: [...LIVE_RUN_STATUSES] },
  });
}

function relayRequest(runId: string) {
  const now = Date.now();
  const id = randomUUID();
  return {
    id,
    kind: 'permission' as const,
    runId,
    sessionId: 's',
    agentId: 'main',
    parents: [],
    toolCallId: id,
    tool: 'bash',
    params: { command: 'date' },
    risk: 'write' as const,
    decision: { action: 'ask' as const, reason: 'risk_default' as const, explanation: 'x' },
    suggestedRules: [],
    prompt: 'Run date?',
    createdAt: now,
    expiresAt: now + 3_600_000,
  };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-append-'));
  const handle = await openDatabase({ dataDir: dir });
  try {
    const q = createQueries(handle.db);
    const times = { before: [] as number[], after: [] as number[] };
    for (let i = 0; i < ROUNDS + 50; i++) {
      for (const which of i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const run = await q.runs.createRun({ sessionId: 's' });
        const t0 = performance.now();
        if (which === 'before') await before(handle.db, q, run.id);
        else await after(q, run.id);
        if (i >= 50) times[which].push(performance.now() - t0);
      }
    }
    console.log(
      `tool_call + relay writes on PGlite (relay INSERT included), ${ROUNDS} rounds each, interleaved, after 50 warm-up rounds:`,
    );
    for (const which of ['before', 'after'] as const) {
      console.log(
        `  ${which.padEnd(6)} ${which === 'before' ? '10 statements' : ' 3 statements'}: p50 ${pct(times[which], 50).toFixed(2)} ms, p99 ${pct(times[which], 99).toFixed(2)} ms`,
      );
    }
    console.log(
      `  ratio of the medians: ${(pct(times.before, 50) / pct(times.after, 50)).toFixed(2)}x; machine load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
    );
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
