// Body of POST /api/users/:id/password. The length policy (10 to 1,024) is lib/auth's, answered as
// a field error on `password`.
import { z } from 'zod';

export const ResetPasswordSchema = z.object({ password: z.string().max(4096) });
