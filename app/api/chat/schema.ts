// Request schema of POST /api/chat: the seeds' shape.
import { z } from 'zod';
import { ModeSchema } from '@/lib/policy';

const MessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string().max(200_000),
});

export const ChatRequestSchema = z.object({
  model: z.string().min(1).optional(),
  messages: z.array(MessageSchema).min(1, 'send at least one message').max(500),
  sessionId: z.string().min(1).max(200).optional(),
  /** Tool names the run may use (reserved: the built-in tools are always offered today). */
  tools: z.array(z.string().min(1)).optional(),
  /** The seeds' `{ allowlist, deny }` permissions, applied on top of the stored policy for this run. */
  permissions: z.record(z.string(), z.unknown()).optional(),
  agent: z.string().min(1).optional(),
  mode: ModeSchema.optional(),
});
