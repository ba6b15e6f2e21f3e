// Query schema of GET /api/relays.
import { z } from 'zod';
import { RelayStatusSchema } from '@/lib/contract';
import { RiskSchema } from '@/lib/policy/types';
import { CursorParam } from '@/lib/server/http/input';

export const RelaysQuerySchema = z.object({
  status: RelayStatusSchema.default('pending'),
  runId: z.string().min(1).max(200).optional(),
  sessionId: z.string().min(1).max(200).optional(),
  agentId: z.string().min(1).max(200).optional(),
  tool: z.string().min(1).max(200).optional(),
  risk: RiskSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: CursorParam.optional(),
});
