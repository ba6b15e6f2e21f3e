// Query schema of GET /api/audit.
import { z } from 'zod';

export const AuditQuerySchema = z.object({
  runId: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  tool: z.string().min(1).optional(),
  action: z.enum(['allow', 'ask', 'deny']).optional(),
  decidedBy: z.string().min(1).optional(),
  kind: z.string().min(1).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).optional(),
});
