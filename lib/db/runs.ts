// Runs: one agent conversation each, with what it needs to resume (state). updateRun can be made
// conditional on the current status, so "cancelled" is never overwritten by a late "done".
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Mode } from '../policy/types';
import type { Database } from './database';
import { counted } from './decision-changes';
import { leaseHeldBy } from './lease-fence';
import { newestFirst, olderThan, pageSize, toPage, type Page } from './pagination';
import type { RunSource } from '../contract';
import { runs, type RunRow, type RunState, type RunStatus } from './schema';

export interface CreateRunInput {
  id?: string;
  sessionId: string;
  status?: RunStatus;
  mode?: Mode;
  agent?: string;
  model?: string;
  title?: string;
  owner?: string;
  state?: RunState;
}

export interface ListRunsInput {
  limit?: number;
  cursor?: string;
  status?: RunStatus;
  sessionId?: string;
  owner?: string;
  /** Only runs of this source (Gatehouse's own agent, a hook, an MCP client). */
  source?: RunSource;
}

/** An outside agent's session (`runs.source` hook or mcp), found by its owner, agent and own id. */
export interface ExternalRunKey {
  source: Exclude<RunSource, 'agent'>;
  owner: string;
  agent: string;
  externalId: string;
}

export interface UpdateRunInput {
  id: string;
  status?: RunStatus;
  state?: RunState;
  mode?: Mode;
  agent?: string;
  model?: string;
  title?: string;
  /** Update only while the run is in one of these statuses. */
  ifStatus?: RunStatus | RunStatus[];
  /** The executor's lease fence: update only while this owner holds the run's lease (else undefined). */
  leaseOwner?: string;
}

/** `changed` is called after a write that changes a run's mode (see createQueries' `decisions`). */
export function runQueries(db: Database, changed: () => void = () => undefined) {
  return {
    async createRun(input: CreateRunInput): Promise<RunRow> {
      const [row] = await db
        .insert(runs)
        .values({ ...input, id: input.id ?? randomUUID() })
        .returning();
      return row!;
    },

    async getRun({ id }: { id: string }): Promise<RunRow | undefined> {
      const [row] = await db.select().from(runs).where(eq(runs.id, id));
      return row;
    },

    /**
     * The run of an outside agent's session, created on its first call. Two first calls at once
     * create one run: the second insert yields to the unique index and reads the first's row.
     */
    async openExternalRun(key: ExternalRunKey & { title: string }): Promise<RunRow> {
      const match = and(
        eq(runs.source, key.source),
        eq(runs.owner, key.owner),
        eq(runs.agent, key.agent),
        eq(runs.externalId, key.externalId),
      );
      const [existing] = await db.select().from(runs).where(match);
      if (existing) return existing;
      await db
        .insert(runs)
        .values({
          id: randomUUID(),
          sessionId: randomUUID(),
          source: key.source,
          owner: key.owner,
          agent: key.agent,
          externalId: key.externalId,
          title: key.title,
          mode: 'default',
          status: 'running',
        })
        .onConflictDoNothing({
          target: [runs.source, runs.owner, runs.agent, runs.externalId],
          where: sql`${runs.externalId} is not null`,
        });
      const [row] = await db.select().from(runs).where(match);
      return row!;
    },

    /** Newest first. */
    async listRuns({ limit, cursor, status, sessionId, owner, source }: ListRunsInput = {}): Promise<Page<RunRow>> {
      const size = pageSize(limit);
      const rows = await db
        .select()
        .from(runs)
        .where(
          and(
            olderThan(runs.createdAt, runs.id, cursor),
            status ? eq(runs.status, status) : undefined,
            sessionId ? eq(runs.sessionId, sessionId) : undefined,
            owner ? eq(runs.owner, owner) : undefined,
            source ? eq(runs.source, source) : undefined,
          ),
        )
        .orderBy(...newestFirst(runs.createdAt, runs.id))
        .limit(size + 1);
      return toPage(rows, size, (row) => ({ at: row.createdAt, id: row.id }));
    },

    /** Who owns a session: the owner of its first run (undefined for a new session). */
    async sessionOwner({ sessionId }: { sessionId: string }): Promise<{ owner: string | null } | undefined> {
      const [row] = await db
        .select({ owner: runs.owner })
        .from(runs)
        .where(eq(runs.sessionId, sessionId))
        .orderBy(asc(runs.createdAt), asc(runs.id))
        .limit(1);
      return row;
    },

    /** The updated run, or undefined when it does not exist (or its status did not match `ifStatus`). */
    async updateRun({ id, ifStatus, leaseOwner, ...changes }: UpdateRunInput): Promise<RunRow | undefined> {
      const statuses = ifStatus === undefined ? undefined : Array.isArray(ifStatus) ? ifStatus : [ifStatus];
      const update = () =>
        db
          .update(runs)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(
            and(
              eq(runs.id, id),
              statuses ? inArray(runs.status, statuses) : undefined,
              leaseOwner === undefined ? undefined : leaseHeldBy(id, leaseOwner),
            ),
          )
          .returning();
      // A run's mode is read by decisions; its saved state, status and title are not.
      const [row] = changes.mode !== undefined ? await counted(changed, update) : await update();
      return row;
    },
  };
}

export type RunQueries = ReturnType<typeof runQueries>;
