// The body of POST /api/chat: the seed design's `{ model, messages, tools, permissions }` and
// Gatehouse's extras. The route parses with it; the client transport's request type is its input.
import { z } from 'zod';
import { ModeSchema } from '../policy/types';

export const ChatMessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string().max(200_000),
});

export const ChatRequestSchema = z.object({
  /** A model spec (`offline`, `openai:<model>`, `anthropic:<model>`, `openai-compatible:<model>`). */
  model: z.string().min(1).max(200).optional(),
  messages: z.array(ChatMessageSchema).min(1, 'send at least one message').max(500),
  sessionId: z.string().min(1).max(200).optional(),
  /** A subset of the agent profile's tools (GET /api/agents lists them). */
  tools: z.array(z.string().min(1).max(100)).max(50).optional(),
  /** Any policy format the server imports (the seeds' `{ allowlist, deny }`), over the stored policy for this run. */
  permissions: z.record(z.string(), z.unknown()).optional(),
  /** An agent profile name from GET /api/agents (default `general`). */
  agent: z.string().min(1).max(100).optional(),
  mode: ModeSchema.optional(),
});

/** What a client sends to POST /api/chat. */
export type ChatRequest = z.input<typeof ChatRequestSchema>;
