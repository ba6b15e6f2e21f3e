// Request schema of POST /api/chat: the seeds' shape.
import { z } from 'zod';
import { ModeSchema } from '@/lib/policy';

const MessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string().max(200_000),
});

export const ChatRequestSchema = z.object({
  /** A model spec (`offline`, `openai:<model>`, `anthropic:<model>`, `openai-compatible:<model>`). */
  model: z.string().min(1).max(200).optional(),
  messages: z.array(MessageSchema).min(1, 'send at least one message').max(500),
  sessionId: z.string().min(1).max(200).optional(),
  /** A subset of the agent profile's tools (GET /api/agents lists them). */
  tools: z.array(z.string().min(1).max(100)).max(50).optional(),
  /** The seeds' `{ allowlist, deny }` permissions, applied on top of the stored policy for this run. */
  permissions: z.record(z.string(), z.unknown()).optional(),
  /** An agent profile name from GET /api/agents (default `general`). */
  agent: z.string().min(1).max(100).optional(),
  mode: ModeSchema.optional(),
});
