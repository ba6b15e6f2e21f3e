// Query schema of GET /api/runs.
import { z } from 'zod';
import { RunSourceSchema, RunStatusSchema } from '@/lib/contract';
import { CursorParam } from '@/lib/server/http/input';

export const ListRunsQuerySchema = z.object({
  status: RunStatusSchema.optional(),
  sessionId: z.string().min(1).optional(),
  /** `hook`: the sessions of outside agents (Claude Code); `agent`: Gatehouse's own runs. */
  source: RunSourceSchema.optional(),
  /** A user id; only approvers and admins may list other people's runs. */
  owner: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: CursorParam.optional(),
});
