// Conversations (chat sessions) as the browser reads them: GET /api/sessions lists them (one row
// per session id, owned by whoever started its first run) and GET /api/sessions/:id gives every
// turn (run) of one with its prompt and events, so the chat reopens it whole.
import { z } from 'zod';
import type { LoggedEvent } from './events';
import { RunStatusSchema, RunSummarySchema } from './runs';

/** One row of GET /api/sessions. Times are ISO strings. */
export const SessionSummarySchema = z.object({
  sessionId: z.string(),
  owner: z.string().nullable(),
  /** The first run's title (its prompt, shortened). */
  title: z.string().nullable(),
  runCount: z.number().int(),
  lastRunId: z.string(),
  lastStatus: RunStatusSchema,
  createdAt: z.string(),
  lastRunAt: z.string(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** One turn of a conversation: the run, the user message that started it, and its event log. */
export interface SessionTurn {
  run: z.infer<typeof RunSummarySchema>;
  /** The run's own prompt (the last user message it was given); empty if it had none. */
  prompt: string;
  events: LoggedEvent[];
}

/** GET /api/sessions/:id: the turns in the order they were started. */
export interface SessionDetail {
  session: SessionSummary;
  turns: SessionTurn[];
}
