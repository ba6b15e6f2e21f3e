// Request schema of POST /api/policy/evaluate: a call to test, optionally against a draft policy.
import { z } from 'zod';
import { ModeSchema, ToolCallSchema } from '@/lib/policy';

export const EvaluateRequestSchema = z.object({
  call: ToolCallSchema,
  mode: ModeSchema.optional(),
  /** A draft policy (any importable format); default: the stored one. */
  policy: z.unknown().optional(),
});
