// Body of POST /api/tokens: a name to recognise the token by, and an optional lifetime in days.
import { z } from 'zod';

export const CreateTokenSchema = z.object({
  name: z.string().trim().min(1, 'give the token a name').max(100),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
