// Request schema of POST /api/chat/relay/:relayId/edit-check.
import { z } from 'zod';

export const EditCheckSchema = z.object({
  sessionId: z.string().min(1),
  params: z.record(z.string(), z.unknown()),
});
