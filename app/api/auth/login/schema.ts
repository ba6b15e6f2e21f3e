// Body of POST /api/auth/login. Lengths are only sanity bounds: the password policy applies when a
// password is set, not when one is tried.
import { z } from 'zod';

export const LoginSchema = z.object({
  username: z.string().trim().min(1, 'enter your username').max(200),
  password: z.string().min(1, 'enter your password').max(4096),
});
