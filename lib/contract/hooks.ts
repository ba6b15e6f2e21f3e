// POST /api/hooks/decide: the generic gate for any outside agent (a framework's approval callback):
// a call in, a decision out, optionally held until a person decides in Gatehouse.
import { z } from 'zod';

/** Agent names only their own adapters may use (rules that target them must mean them). */
export const RESERVED_AGENT_NAMES = ['main', 'claude-code', 'gemini-cli', 'codex'] as const;

export const DecideRequestSchema = z.object({
  tool: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()),
  /** The agent's name as rules see it (`agent` on a rule). Default `hook`. */
  agent: z
    .string()
    .min(1)
    .max(100)
    .refine((name) => !(RESERVED_AGENT_NAMES as readonly string[]).includes(name), {
      message: `must not be one of ${RESERVED_AGENT_NAMES.join(', ')} (each has its own endpoint)`,
    })
    .optional(),
  /** The agent's own session id: grants and the run are per (user, agent, session). Default: one session per call. */
  session: z.string().min(1).max(200).optional(),
  /** An absolute directory that relative paths and file rules resolve against. */
  cwd: z
    .string()
    .max(4096)
    .refine((dir) => dir.startsWith('/'), { message: 'must be an absolute path' })
    .optional(),
  /** An absolute directory: the agent user's home, which `~/` in rules means (default: the server's). */
  home: z
    .string()
    .max(4096)
    .refine((dir) => dir.startsWith('/'), { message: 'must be an absolute path' })
    .optional(),
  /** The agent's own id of the call: a retry gets the same decision. */
  callId: z.string().min(1).max(200).optional(),
  /** Wait for a person when the policy asks (default true); false answers `ask` at once. */
  wait: z.boolean().optional(),
  /** The approval deadline in seconds (shorter than the caller's own request timeout). */
  deadline: z.number().int().min(1).max(86_400).optional(),
});
export type DecideRequest = z.infer<typeof DecideRequestSchema>;

export const DecideResponseSchema = z.object({
  decision: z.enum(['allow', 'deny', 'ask']),
  reason: z.string(),
  runId: z.string(),
  relayId: z.string().optional(),
  /** With `allow`: the parameters to run with (a person may have edited them). */
  params: z.record(z.string(), z.unknown()).optional(),
});
export type DecideResponse = z.infer<typeof DecideResponseSchema>;
