// Roles and what they may do: one table (PERMISSIONS) and one function (`can`). Run-level checks
// (`canSeeRun`, `canDecideRelay`) add ownership: a user acts on the runs they started; approvers
// and admins on any run. `runs.owner` holds the owner's user id.
import { ACTIONS, ROLES, type AccessAction as Action, type Role as UserRole, type TokenPurpose } from '../contract';
import { ForbiddenError, UnauthorizedError } from './errors';

// The roles and actions are the contract's (the browser reads them too); who may do what is here.
export { ACTIONS, ROLES, type Action, type UserRole as Role };

/** Who may do what. Admin: everything. Approver: decide and see any run, read the policy, grants and audit. User: their own runs. */
export const PERMISSIONS: Record<UserRole, ReadonlySet<Action>> = {
  admin: new Set(ACTIONS),
  approver: new Set<Action>([
    'policy:read',
    'grants:read',
    'runs:start',
    'runs:read:own',
    'runs:read:any',
    'relays:decide:own',
    'relays:decide:any',
    'audit:read',
    'tokens:manage:own',
  ]),
  user: new Set<Action>(['policy:read', 'runs:start', 'runs:read:own', 'relays:decide:own', 'tokens:manage:own']),
};

/** The part of a user the checks need. */
export interface Principal {
  id: string;
  role: UserRole;
  /** Set when the caller authenticated with an API token: `agent` tokens only ask the gate. */
  tokenPurpose?: TokenPurpose;
}

/** The part of a run the checks need. A run without an owner (started before auth existed) is nobody's own. */
export interface OwnedRun {
  owner: string | null | undefined;
}

export function can(user: Principal | undefined, action: Action): boolean {
  return user !== undefined && (PERMISSIONS[user.role]?.has(action) ?? false);
}

const owns = (user: Principal, run: OwnedRun) => run.owner != null && run.owner === user.id;

export function canSeeRun(user: Principal | undefined, run: OwnedRun): boolean {
  if (!user) return false;
  return can(user, 'runs:read:any') || (can(user, 'runs:read:own') && owns(user, run));
}

/** Deciding a relay, and acting on a run as a whole (cancel, mode switch): the owner, an approver or an admin. */
export function canDecideRelay(user: Principal | undefined, run: OwnedRun): boolean {
  if (!user) return false;
  return can(user, 'relays:decide:any') || (can(user, 'relays:decide:own') && owns(user, run));
}

/** Whether the caller came with an agent token (one that may only ask the gate). */
export const isAgentToken = (user: Principal | undefined): boolean => user?.tokenPurpose === 'agent';

/**
 * Refuses an agent token (403 `forbidden:agent_token`). Every route runs this unless it opts in to
 * agent tokens (agentRoute in lib/server/http/handler.ts), so a new route is closed to them by default.
 */
export function assertNotAgentToken<U extends Principal | undefined>(user: U): U {
  if (isAgentToken(user))
    throw new ForbiddenError(
      'agent_token',
      'An agent token only asks the gate (the hook endpoints and /api/mcp); it cannot do this. Use a full token or sign in.',
    );
  return user;
}

/** The signed-in user, or UnauthorizedError (401). */
export function requireUser<U extends Principal>(user: U | undefined): U {
  if (!user) throw new UnauthorizedError();
  return user;
}

/** The user when they may do `action`; 401 when nobody is signed in, 403 `forbidden:<action>` otherwise. */
export function assertCan<U extends Principal>(user: U | undefined, action: Action): U {
  const signedIn = requireUser(user);
  if (!can(signedIn, action)) throw new ForbiddenError(action);
  return signedIn;
}
