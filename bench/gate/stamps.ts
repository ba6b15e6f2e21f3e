// Where the time goes: the probes' server-side timestamps, read from the database after the
// servers stopped (PGlite: opened here from the data dir; PostgreSQL: a pg client), split into stages.
import path from 'node:path';

export interface ServerStamps {
  runCreated?: number;
  gateDecided?: number; // relays.created_at = relay.createdAt
  toolCallStored?: number;
  relayStored?: number;
  decided?: number; // relays.decided_at (broker.resolve, before the settle UPDATE)
  resolvedStored?: number;
  claimed?: number; // tool_executions.claimed_at
}

/** A probe's client stamps (CLOCK_REALTIME ms) that the stages compare with the server's. */
export interface ProbeTimes {
  runId: string;
  tPost: number;
  tRelay: number;
  tDecision: number;
  tStarted: number;
}

export interface Stage<P = ProbeTimes> {
  label: string;
  of: (p: P, s: ServerStamps) => number | undefined;
}

export const d = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined ? undefined : b - a;

export const STAGES: Stage[] = [
  {
    label: 'POST /api/chat sent -> run row created (HTTP, route, policy SELECT + compile)',
    of: (p, s) => d(p.tPost, s.runCreated),
  },
  {
    label: 'run row created -> gate decided (agent set-up, model step, checkpoint, grants, gate)',
    of: (_, s) => d(s.runCreated, s.gateDecided),
  },
  {
    label: 'gate decided -> tool_call event stored (relay INSERT; audit + event append: one statement)',
    of: (_, s) => d(s.gateDecided, s.toolCallStored),
  },
  {
    label: 'tool_call stored -> relay event stored (run status + event append: one statement)',
    of: (_, s) => d(s.toolCallStored, s.relayStored),
  },
  { label: 'relay event stored -> relay received by the client (SSE)', of: (p, s) => d(s.relayStored, p.tRelay) },
  {
    label: 'decision POST sent -> decision taken (HTTP, the fast path, token check, the settle UPDATE starts)',
    of: (p, s) => d(p.tDecision, s.decided),
  },
  {
    label: 'decision taken -> execution claim (one statement: the approval claims the call, so 0)',
    of: (_, s) => d(s.decided, s.claimed),
  },
  {
    label:
      'execution claim -> bash running (settle + claim statement, wake, command written to the spare bash, exec date)',
    of: (p, s) => d(s.claimed, p.tStarted),
  },
];

export interface QueryClient {
  query<T>(text: string, values: unknown[]): Promise<{ rows: T[] }>;
  close(): Promise<void>;
}

/** A pg client with PGlite's `query` / `close` shape. */
export async function openPg(url: string): Promise<QueryClient> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <T>(text: string, values: unknown[]) => ({ rows: (await client.query(text, values)).rows as T[] }),
    close: () => client.end(),
  };
}

/** Opens the (stopped) server's database directly and reads the probe runs' timestamps. */
export async function serverStamps(
  source: { databaseUrl?: string; dataDir: string },
  runIds: string[],
): Promise<Map<string, ServerStamps>> {
  const db: QueryClient = source.databaseUrl
    ? await openPg(source.databaseUrl)
    : await (await import('@electric-sql/pglite')).PGlite.create(path.join(source.dataDir, 'db', 'pgdata'));
  try {
    const out = new Map<string, ServerStamps>(runIds.map((id) => [id, {}]));
    const get = (id: string) => out.get(id);
    type Row = { run_id: string; t: number | null; t2?: number | null; type?: string };
    const epochMs = (col: string) => `extract(epoch from ${col})::float8 * 1000`;
    for (const r of (
      await db.query<Row>(`select id as run_id, ${epochMs('created_at')} as t from runs where id = any($1)`, [runIds])
    ).rows) {
      const s = get(r.run_id);
      if (s && r.t !== null) s.runCreated = r.t;
    }
    for (const r of (
      await db.query<Row>(
        `select run_id, ${epochMs('created_at')} as t, ${epochMs('decided_at')} as t2 from relays where run_id = any($1)`,
        [runIds],
      )
    ).rows) {
      const s = get(r.run_id);
      if (!s) continue;
      if (r.t !== null) s.gateDecided = r.t;
      if (r.t2 !== null && r.t2 !== undefined) s.decided = r.t2;
    }
    for (const r of (
      await db.query<Row>(`select run_id, ${epochMs('claimed_at')} as t from tool_executions where run_id = any($1)`, [
        runIds,
      ])
    ).rows) {
      const s = get(r.run_id);
      if (s && r.t !== null) s.claimed = r.t;
    }
    for (const r of (
      await db.query<Row>(
        `select run_id, type, ${epochMs('created_at')} as t from events where run_id = any($1) and type in ('tool_call', 'relay', 'relay_resolved')`,
        [runIds],
      )
    ).rows) {
      const s = get(r.run_id);
      if (!s || r.t === null) continue;
      if (r.type === 'tool_call') s.toolCallStored = r.t;
      else if (r.type === 'relay') s.relayStored = r.t;
      else s.resolvedStored = r.t;
    }
    return out;
  } finally {
    await db.close();
  }
}

/** Mean of one stage over a set of probes, as printed (`-` when no probe has both stamps). */
export function stageMean<P extends { runId: string }>(
  stage: Stage<P>,
  probes: P[],
  stamps: Map<string, ServerStamps>,
): number | undefined {
  const xs = probes.flatMap((p) => {
    const s = stamps.get(p.runId);
    const v = s ? stage.of(p, s) : undefined;
    return v === undefined ? [] : [v];
  });
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}
