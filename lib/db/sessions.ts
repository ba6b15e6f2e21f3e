// Browser sessions, keyed by the sha256 of the token in the signed cookie (lib/auth/sessions.ts).
// A session is valid while its row exists and has not expired (database clock), so ending one is a
// DELETE that every instance sees on its next request. Rows are created only for an enabled user,
// under a lock on the user's row, so a sign-in racing a disable cannot leave a live session behind.
import { and, eq, gt, lte, ne, sql } from 'drizzle-orm';
import type { Database } from './database';
import { sessions, users, type SessionRow, type UserRow } from './schema';

export interface CreateSessionInput {
  /** sha256 hex of the cookie's token. */
  id: string;
  userId: string;
  /** Seconds from the database's now(). */
  ttlS: number;
}

/** `changed(userId)` is called after sessions were ended (see createQueries' `credentials`). */
export function sessionQueries(db: Database, changed: (userId: string) => void = () => undefined) {
  return {
    /**
     * The new session, or undefined when the user is unknown or disabled. Expired sessions of
     * everyone are removed on the way (sign-ins are rare; the table stays the size of live sessions).
     */
    async createSession({ id, userId, ttlS }: CreateSessionInput): Promise<SessionRow | undefined> {
      return db.transaction(async (tx) => {
        // A concurrent disable holds this row until it committed, and then we see it disabled.
        const [user] = await tx
          .select({ disabled: users.disabled })
          .from(users)
          .where(eq(users.id, userId))
          .for('share');
        if (!user || user.disabled) return undefined;
        await tx.delete(sessions).where(lte(sessions.expiresAt, sql`now()`));
        const [row] = await tx
          .insert(sessions)
          .values({ id, userId, expiresAt: sql`now() + make_interval(secs => ${ttlS})` })
          .returning();
        return row;
      });
    },

    /** The live session with this id and its user, whatever the user's state: the caller judges disabled. */
    async findSession({ id }: { id: string }): Promise<{ session: SessionRow; user: UserRow } | undefined> {
      const [row] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`)));
      return row;
    },

    /** Ends one session (sign-out); its row, or undefined when there was none. */
    async deleteSession({ id }: { id: string }): Promise<SessionRow | undefined> {
      const [row] = await db.delete(sessions).where(eq(sessions.id, id)).returning();
      if (row) changed(row.userId);
      return row;
    },

    /** Ends every session of a user but `exceptId` (sign out everywhere); how many ended. */
    async deleteUserSessions({ userId, exceptId }: { userId: string; exceptId?: string }): Promise<number> {
      const rows = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), exceptId ? ne(sessions.id, exceptId) : undefined))
        .returning({ id: sessions.id });
      changed(userId);
      return rows.length;
    },
  };
}

export type SessionQueries = ReturnType<typeof sessionQueries>;
