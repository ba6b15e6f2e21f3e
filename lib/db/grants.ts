// Grants: rules added by "Always Allow" (session or global) and allow-once grants. Revoking and
// consuming are conditional updates, so an allow-once grant is used by exactly one call.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Rule } from '../policy/types';
import { auditQueries, type RecordAuditInput } from './audit';
import type { Database } from './database';
import { counted } from './decision-changes';
import { grants, type GrantRow, type GrantScope } from './schema';

export interface CreateGrantInput {
  id?: string;
  rule: Rule;
  scope: GrantScope;
  /** Required for session grants. */
  sessionId?: string;
  createdBy: string;
  /** Default: the rule's own `once`. */
  once?: boolean;
}

export interface ListGrantsInput {
  /** A session's grants plus the global ones; without it, every grant. */
  sessionId?: string;
  includeRevoked?: boolean;
}

const live = () => isNull(grants.revokedAt);

/** `changed` is called after every write (see createQueries' `decisions`). */
export function grantQueries(db: Database, changed: () => void = () => undefined) {
  return {
    async createGrant({ id, rule, scope, sessionId, createdBy, once }: CreateGrantInput): Promise<GrantRow> {
      if (scope === 'session' && !sessionId) throw new TypeError('A session grant needs a sessionId');
      const [row] = await counted(changed, () =>
        db
          .insert(grants)
          .values({
            id: id ?? randomUUID(),
            rule,
            scope,
            sessionId: scope === 'session' ? sessionId : null,
            once: once ?? rule.once ?? false,
            createdBy,
          })
          .returning(),
      );
      return row!;
    },

    /** Oldest first. */
    async listGrants({ sessionId, includeRevoked = false }: ListGrantsInput = {}): Promise<GrantRow[]> {
      return db
        .select()
        .from(grants)
        .where(
          and(
            sessionId === undefined ? undefined : or(eq(grants.scope, 'global'), eq(grants.sessionId, sessionId)),
            includeRevoked ? undefined : live(),
          ),
        )
        .orderBy(asc(grants.createdAt), asc(grants.id));
    },

    async getGrant({ id }: { id: string }): Promise<GrantRow | undefined> {
      const [row] = await db.select().from(grants).where(eq(grants.id, id));
      return row;
    },

    /** The revoked grant, or undefined when it does not exist or was already revoked. */
    /**
     * Revokes a live grant; undefined if there is none. With `audit`, its audit row is written in
     * the same transaction: a revoke is never stored without its record (nor the record without it).
     */
    async revokeGrant({
      id,
      revokedBy,
      audit: auditOf,
    }: {
      id: string;
      revokedBy: string;
      audit?: (row: GrantRow) => RecordAuditInput;
    }): Promise<GrantRow | undefined> {
      return counted(changed, () =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .update(grants)
            .set({ revokedAt: sql`now()`, revokedBy })
            .where(and(eq(grants.id, id), live()))
            .returning();
          if (row && auditOf) await auditQueries(tx).recordAudit(auditOf(row));
          return row;
        }),
      );
    },

    /** Uses up an allow-once grant: the row for the one caller that consumed it, undefined for everyone else. */
    async consumeGrant({
      id,
      consumedBy = 'system',
    }: {
      id: string;
      consumedBy?: string;
    }): Promise<GrantRow | undefined> {
      const [row] = await counted(changed, () =>
        db
          .update(grants)
          .set({ revokedAt: sql`now()`, revokedBy: consumedBy, consumedAt: sql`now()` })
          .where(and(eq(grants.id, id), eq(grants.once, true), live()))
          .returning(),
      );
      return row;
    },
  };
}

export type GrantQueries = ReturnType<typeof grantQueries>;
