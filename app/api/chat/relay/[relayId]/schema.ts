// Request schema of POST /api/chat/relay/:relayId: a human's answer to a pending approval.
import { z } from 'zod';
import { RuleSchema } from '@/lib/policy';

export const RelayDecisionSchema = z.object({
  sessionId: z.string().min(1),
  response: z.object({
    approved: z.boolean(),
    always: z.boolean().optional(),
    reason: z.string().max(2000).optional(),
    rule: z.union([RuleSchema, z.array(RuleSchema).min(1).max(20)]).optional(),
    scope: z.enum(['session', 'global']).optional(),
  }),
});
