// Versioned policy: every save is a new row numbered expectedVersion + 1. The primary key makes
// saves race-safe: of two saves based on the same version, one inserts and the other conflicts.
import { desc, eq, lt } from 'drizzle-orm';
import type { Policy } from '../policy/types';
import type { Database } from './database';
import { counted } from './decision-changes';
import { policyVersions, type PolicyVersionRow } from './schema';

export interface SavePolicyInput {
  policy: Policy;
  /** The version the edit was based on; 0 when there is none yet. */
  expectedVersion: number;
  createdBy: string;
  note?: string;
}

export type SavePolicyResult = { ok: true; version: PolicyVersionRow } | { ok: false; currentVersion: number };

/** `changed` is called after every write (see createQueries' `decisions`). */
export function policyQueries(db: Database, changed: () => void = () => undefined) {
  async function getLatestPolicy(): Promise<PolicyVersionRow | undefined> {
    const [row] = await db.select().from(policyVersions).orderBy(desc(policyVersions.version)).limit(1);
    return row;
  }

  return {
    getLatestPolicy,

    /** The latest version's number only: a cheap "has the policy changed?" for callers that cache it. */
    async getLatestVersion(): Promise<number | undefined> {
      const [row] = await db
        .select({ version: policyVersions.version })
        .from(policyVersions)
        .orderBy(desc(policyVersions.version))
        .limit(1);
      return row?.version;
    },

    /** The new version, or the version in force when `expectedVersion` is not it. */
    async savePolicy({ policy, expectedVersion, createdBy, note }: SavePolicyInput): Promise<SavePolicyResult> {
      // Refusing a stale or future base here keeps versions gapless; the insert catches the race.
      const latest = (await getLatestPolicy())?.version ?? 0;
      if (latest !== expectedVersion) return { ok: false, currentVersion: latest };
      const [row] = await counted(changed, () =>
        db
          .insert(policyVersions)
          .values({ version: expectedVersion + 1, policy, createdBy, note })
          .onConflictDoNothing()
          .returning(),
      );
      if (row) return { ok: true, version: row };
      return { ok: false, currentVersion: (await getLatestPolicy())?.version ?? 0 };
    },

    /** Newest first, `limit` (default 50) versions older than `beforeVersion`. */
    async listPolicyVersions({ limit = 50, beforeVersion }: { limit?: number; beforeVersion?: number } = {}): Promise<
      PolicyVersionRow[]
    > {
      return db
        .select()
        .from(policyVersions)
        .where(beforeVersion === undefined ? undefined : lt(policyVersions.version, beforeVersion))
        .orderBy(desc(policyVersions.version))
        .limit(limit);
    },

    async getPolicyVersion({ version }: { version: number }): Promise<PolicyVersionRow | undefined> {
      const [row] = await db.select().from(policyVersions).where(eq(policyVersions.version, version));
      return row;
    },
  };
}

export type PolicyQueries = ReturnType<typeof policyQueries>;
