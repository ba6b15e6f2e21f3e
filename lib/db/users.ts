// Users. Usernames are unique ignoring case (a unique index on lower(username)), so a create that
// loses a race gets `username_taken`, never a duplicate. Every change that could leave no enabled
// admin runs under a lock on the enabled admins' rows, so two concurrent demotions cannot both win.
// Ending a user's sessions and revoking their credentials happen in the same transaction as the
// change that calls for them (a disable, a password reset).
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from './database';
import { apiTokens, loginTokens, sessions, users, type UserRole, type UserRow } from './schema';

export interface CreateUserInput {
  id?: string;
  username: string;
  /** Default: the username. */
  displayName?: string;
  role: UserRole;
  passwordHash?: string | null;
}

export type CreateUserResult = { ok: true; user: UserRow } | { ok: false; reason: 'username_taken' };

export interface UpdateUserInput {
  id: string;
  role?: UserRole;
  disabled?: boolean;
  displayName?: string;
  /** A new hash, or null to remove password sign-in. */
  passwordHash?: string | null;
  /** Ends the user's sessions: all of them, or all but `except` (the caller's own, changing their own password). */
  endSessions?: boolean | { except: string };
  /** Revokes the user's API tokens and deletes their unused sign-in links (a disable: re-enabling brings none back). */
  revokeCredentials?: boolean;
}

export type UpdateUserResult = { ok: true; user: UserRow } | { ok: false; reason: 'not_found' | 'last_admin' };

const byUsername = (username: string) => eq(sql`lower(${users.username})`, username.toLowerCase());
const isEnabledAdmin = (row: Pick<UserRow, 'role' | 'disabled'>) => row.role === 'admin' && !row.disabled;

/** `changed(userId)` is called after every change a caller may be authenticated against (see createQueries' `credentials`). */
export function userQueries(db: Database, changed: (userId: string) => void = () => undefined) {
  async function update({
    id,
    role,
    disabled,
    displayName,
    passwordHash,
    endSessions = false,
    revokeCredentials = false,
  }: UpdateUserInput): Promise<UpdateUserResult> {
    return db.transaction(async (tx) => {
      // Lock in one order (by id) so concurrent guarded updates cannot deadlock.
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), eq(users.disabled, false)))
        .orderBy(asc(users.id))
        .for('update');
      const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
      if (!current) return { ok: false, reason: 'not_found' } as const;
      const after = { role: role ?? current.role, disabled: disabled ?? current.disabled };
      if (isEnabledAdmin(current) && !isEnabledAdmin(after) && !admins.some((a) => a.id !== id)) {
        return { ok: false, reason: 'last_admin' } as const;
      }
      const [row] = await tx
        .update(users)
        .set({
          ...(role !== undefined ? { role } : {}),
          ...(disabled !== undefined ? { disabled } : {}),
          ...(displayName !== undefined ? { displayName } : {}),
          ...(passwordHash !== undefined ? { passwordHash } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, id))
        .returning();
      if (endSessions) {
        const except = typeof endSessions === 'object' ? endSessions.except : undefined;
        await tx.delete(sessions).where(and(eq(sessions.userId, id), except ? ne(sessions.id, except) : undefined));
      }
      if (revokeCredentials) {
        await tx
          .update(apiTokens)
          .set({ revokedAt: sql`now()` })
          .where(and(eq(apiTokens.userId, id), isNull(apiTokens.revokedAt)));
        await tx.delete(loginTokens).where(and(eq(loginTokens.userId, id), isNull(loginTokens.usedAt)));
      }
      return { ok: true, user: row! } as const;
    });
  }

  return {
    /** Inserts unless the username (ignoring case) is taken; concurrent creates of one name: one wins. */
    async createUser({
      id,
      username,
      displayName,
      role,
      passwordHash = null,
    }: CreateUserInput): Promise<CreateUserResult> {
      const [row] = await db
        .insert(users)
        .values({ id: id ?? randomUUID(), username, displayName: displayName ?? username, role, passwordHash })
        .onConflictDoNothing()
        .returning();
      if (row) changed(row.id);
      return row ? { ok: true, user: row } : { ok: false, reason: 'username_taken' };
    },

    async getUser({ id }: { id: string }): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    /** Case-insensitive. */
    async getUserByUsername({ username }: { username: string }): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(byUsername(username));
      return row;
    },

    /** Oldest first; users created in the same millisecond by name. */
    async listUsers({ role, includeDisabled = true }: { role?: UserRole; includeDisabled?: boolean } = {}): Promise<
      UserRow[]
    > {
      return db
        .select()
        .from(users)
        .where(and(role ? eq(users.role, role) : undefined, includeDisabled ? undefined : eq(users.disabled, false)))
        .orderBy(asc(users.createdAt), asc(users.username));
    },

    async countUsers(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return row?.n ?? 0;
    },

    /**
     * Changes what is given. Refuses (`last_admin`) a change that would leave no enabled admin: the
     * enabled admins' rows are locked first, so of two admins demoting each other one is refused.
     */
    async updateUser(input: UpdateUserInput): Promise<UpdateUserResult> {
      try {
        return await update(input);
      } finally {
        // After the commit (or a failure, which may have committed nothing): a reader never caches the old row as current.
        changed(input.id);
      }
    },

    /** The oldest enabled admin other than `exceptId`, if any. */
    async firstEnabledAdmin({ exceptId }: { exceptId?: string } = {}): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.role, 'admin'), eq(users.disabled, false), exceptId ? ne(users.id, exceptId) : undefined))
        .orderBy(asc(users.createdAt), asc(users.id))
        .limit(1);
      return row;
    },
  };
}

export type UserQueries = ReturnType<typeof userQueries>;
