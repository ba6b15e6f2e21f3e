// Body of POST /api/auth/password. Lengths are sanity bounds; the password policy (10 to 1,024)
// is lib/auth's, answered as a field error on `password`.
import { z } from 'zod';

export const ChangeOwnPasswordSchema = z.object({
  currentPassword: z.string().max(4096),
  password: z.string().max(4096),
});
