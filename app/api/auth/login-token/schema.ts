// Body of POST /api/auth/login-token: the secret of a one-time sign-in link.
import { z } from 'zod';

export const LoginTokenSchema = z.object({ token: z.string().trim().min(1, 'the link has no token').max(256) });
