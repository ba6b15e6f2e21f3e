// Request schema of POST /api/chat/relay/:relayId/check.
import { z } from 'zod';
import { RuleSchema } from '@/lib/policy';

export const CheckAlwaysAllowSchema = z.object({
  sessionId: z.string().min(1),
  rule: z.array(RuleSchema).min(1).max(20),
});
