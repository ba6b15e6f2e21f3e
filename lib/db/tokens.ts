// API tokens and one-time login tokens, stored by the sha256 of their secret (the secret itself is
// never stored). Consuming a login token is one conditional UPDATE, so a link works exactly once;
// deadlines are judged by the database clock. Only a user's newest sign-in link is valid: issuing
// one deletes the unused others, under a lock on the user's row.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { TokenPurpose } from '../contract';
import type { Database } from './database';
import { apiTokens, loginTokens, users, type ApiTokenRow, type LoginTokenRow, type UserRow } from './schema';

export interface CreateApiTokenInput {
  id?: string;
  userId: string;
  name: string;
  tokenHash: string;
  expiresAt?: Date | null;
  /** `full` (the default) or `agent`: a token that only asks the gate. */
  purpose?: TokenPurpose;
}

export interface CreateLoginTokenInput {
  tokenHash: string;
  userId: string;
  /** Seconds from the database's now(). */
  ttlS: number;
}

/** `changed(userId)` is called after every change to API tokens (see createQueries' `credentials`). */
export function tokenQueries(db: Database, changed: (userId: string) => void = () => undefined) {
  return {
    /** The new token, or undefined when a token with this hash exists already (e.g. GATEHOUSE_ADMIN_TOKEN stored by another process). */
    async createApiToken({
      id,
      userId,
      name,
      tokenHash,
      expiresAt = null,
      purpose = 'full',
    }: CreateApiTokenInput): Promise<ApiTokenRow | undefined> {
      const [row] = await db
        .insert(apiTokens)
        .values({ id: id ?? randomUUID(), userId, name, tokenHash, expiresAt, purpose })
        .onConflictDoNothing()
        .returning();
      if (row) changed(row.userId);
      return row;
    },

    /** The token with this hash and its user, whatever their state: the caller judges revoked, expired and disabled. */
    async findApiToken({
      tokenHash,
    }: {
      tokenHash: string;
    }): Promise<{ token: ApiTokenRow; user: UserRow } | undefined> {
      const [row] = await db
        .select({ token: apiTokens, user: users })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .where(eq(apiTokens.tokenHash, tokenHash));
      return row;
    },

    /** Records a use; skipped when the last one was recorded less than `minIntervalS` ago, so busy scripts do not write on every call. */
    async touchApiToken({ id, minIntervalS = 60 }: { id: string; minIntervalS?: number }): Promise<void> {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: sql`now()` })
        .where(
          and(
            eq(apiTokens.id, id),
            or(
              isNull(apiTokens.lastUsedAt),
              lte(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${minIntervalS})`),
            ),
          ),
        );
    },

    /** Oldest first. */
    async listApiTokens({
      userId,
      includeRevoked = false,
    }: { userId?: string; includeRevoked?: boolean } = {}): Promise<ApiTokenRow[]> {
      return db
        .select()
        .from(apiTokens)
        .where(
          and(
            userId ? eq(apiTokens.userId, userId) : undefined,
            includeRevoked ? undefined : isNull(apiTokens.revokedAt),
          ),
        )
        .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
    },

    /** The revoked token; undefined when it does not exist, is not `userId`'s (when given), or was revoked already. */
    async revokeApiToken({ id, userId }: { id: string; userId?: string }): Promise<ApiTokenRow | undefined> {
      const [row] = await db
        .update(apiTokens)
        .set({ revokedAt: sql`now()` })
        .where(
          and(eq(apiTokens.id, id), userId ? eq(apiTokens.userId, userId) : undefined, isNull(apiTokens.revokedAt)),
        )
        .returning();
      if (row) changed(row.userId);
      return row;
    },

    /**
     * The new sign-in link's row; the user's unused links are deleted with it (newest link only).
     * Undefined when the user is unknown or disabled (a disable deletes the links, so one issued
     * concurrently must not outlive it: the user's row is locked first).
     */
    async createLoginToken({ tokenHash, userId, ttlS }: CreateLoginTokenInput): Promise<LoginTokenRow | undefined> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .select({ disabled: users.disabled })
          .from(users)
          .where(eq(users.id, userId))
          .for('update');
        if (!user || user.disabled) return undefined;
        await tx.delete(loginTokens).where(and(eq(loginTokens.userId, userId), isNull(loginTokens.usedAt)));
        const [row] = await tx
          .insert(loginTokens)
          .values({ tokenHash, userId, expiresAt: sql`now() + make_interval(secs => ${ttlS})` })
          .returning();
        return row;
      });
    },

    /** Marks the token used: the row for the one caller that consumed it, undefined for a used, expired or unknown token. */
    async consumeLoginToken({ tokenHash }: { tokenHash: string }): Promise<LoginTokenRow | undefined> {
      const [row] = await db
        .update(loginTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(eq(loginTokens.tokenHash, tokenHash), isNull(loginTokens.usedAt), sql`${loginTokens.expiresAt} > now()`),
        )
        .returning();
      return row;
    },

    /** Removes used and expired login tokens; returns how many. */
    async deleteStaleLoginTokens(): Promise<number> {
      const rows = await db
        .delete(loginTokens)
        .where(or(sql`${loginTokens.usedAt} is not null`, lte(loginTokens.expiresAt, sql`now()`)))
        .returning({ tokenHash: loginTokens.tokenHash });
      return rows.length;
    },
  };
}

export type TokenQueries = ReturnType<typeof tokenQueries>;
