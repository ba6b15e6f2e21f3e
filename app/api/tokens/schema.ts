// Body of POST /api/tokens: a name to recognise the token by, an optional lifetime in days, and
// its purpose: `full` (the default: whatever the user's role may do) or `agent` (only asks the gate).
import { z } from 'zod';
import { TOKEN_PURPOSES } from '@/lib/contract';

export const CreateTokenSchema = z.object({
  name: z.string().trim().min(1, 'give the token a name').max(100),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
  purpose: z.enum(TOKEN_PURPOSES, { error: `must be one of: ${TOKEN_PURPOSES.join(', ')}` }).default('full'),
});
