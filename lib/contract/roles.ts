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
] as const;
export const AccessActionSchema = z.enum(ACTIONS);
export type AccessAction = z.infer<typeof AccessActionSchema>;

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
