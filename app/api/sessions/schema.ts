// Query schema of GET /api/sessions.
import { z } from 'zod';
import { CursorParam } from '@/lib/server/http/input';

export const ListSessionsQuerySchema = z.object({
  /** A user id; only approvers and admins may list another user's conversations. */
  user: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: CursorParam.optional(),
});
