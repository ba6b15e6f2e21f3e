// Query schema of GET /api/audit.
import { z } from 'zod';
import { CursorParam, StorableDate } from '@/lib/server/http/input';

export const AuditQuerySchema = z.object({
  runId: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  tool: z.string().min(1).optional(),
  action: z.enum(['allow', 'ask', 'deny']).optional(),
  decidedBy: z.string().min(1).optional(),
  kind: z.string().min(1).optional(),
  from: StorableDate.optional(),
  to: StorableDate.optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: CursorParam.optional(),
});
