// Who may do what, as the browser sees it: the roles, the actions a role may be granted, and the
// signed-in user (GET /api/auth/me). The table of which role may do which action is lib/auth's.
import { z } from 'zod';

export const ROLES = ['admin', 'approver', 'user'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const ACTIONS = [
  'policy:read',
  'policy:edit',
  'grants:read',
  'grants:manage',
  'runs:start',
  'runs:read:own',
  'runs:read:any',
  'relays:decide:own',
  'relays:decide:any',
  'audit:read',
  'users:manage',
  'tokens:manage:own',
  'servers:manage',
  'webhooks:manage',
] as const;
export const AccessActionSchema = z.enum(ACTIONS);
export type AccessAction = z.infer<typeof AccessActionSchema>;

/**
 * What an API token is for. `full`: everything its user's role may do (scripts, the CLI). `agent`:
 * only asking the gate (the hook endpoints and /api/mcp), so an agent whose environment holds it
 * cannot use it to decide its own relays or change the policy (docs/decisions/0027-agent-tokens.md).
 */
export const TOKEN_PURPOSES = ['full', 'agent'] as const;
export const TokenPurposeSchema = z.enum(TOKEN_PURPOSES);
export type TokenPurpose = z.infer<typeof TokenPurposeSchema>;

/** The signed-in user (GET /api/auth/me, and `user` of the sign-in responses). */
export const MeSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  /** What the role may do, so the UI can hide what would be refused (the server checks anyway). */
  permissions: z.array(AccessActionSchema),
});
export type Me = z.infer<typeof MeSchema>;

/** A user as GET /api/users shows it (never a password hash). Times are ISO strings. */
export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  disabled: z.boolean(),
  hasPassword: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof UserSchema>;
