// Body of POST /api/users: the service's own schema (username rules, role, optional password). The
// form sends no empty strings, so a blank display name or password is left out, not refused.
export { CreateUserSchema } from '@/lib/auth';
