// Codex CLI's PreToolUse hook protocol: the JSON its command hook receives on stdin (which the hook
// command, scripts/gatehouse-hook.mjs --codex, posts here unchanged) and the JSON it obeys on
// stdout. The call is mapped onto Gatehouse's tools (lib/policy/codex) and decided by the
// outside-agent gate; every way of failing is a denial, never an allow.
import { z } from 'zod';
import { mapCodexCall } from '../../policy/codex';
import { AppError } from '../http/errors';
import type { ExternalGate } from '../external/external-gate';
import { hookCallPlace, hookSession, HookToolNameSchema, type HookClient } from './hook-call';

export const CODEX_AGENT = 'codex';
// Codex keeps its transcripts under `<home>/.codex/sessions/` (unless CODEX_HOME moves them) and
// says where in `transcript_path`.
const CODEX: HookClient = { agent: CODEX_AGENT, label: 'Codex', transcripts: '/.codex/sessions/' };

/**
 * The fields Gatehouse reads; Codex sends more (turn_id, model, permission_mode, ...), ignored.
 * Its `tool_use_id` is not taken as the call's id (as Claude Code's is): Codex numbers calls
 * `call_1`, `call_2`, ... with nothing saying they are unique within a session (the first call of
 * each recorded session is `call_1`), and a call id that repeats would be read as the same call. A
 * patch is one decision per file anyway.
 */
export const CodexHookInputSchema = z.looseObject({
  session_id: z.string().min(1).max(200),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.literal('PreToolUse', { message: 'hook_event_name must be PreToolUse' }),
  tool_name: HookToolNameSchema,
  tool_input: z.unknown(),
});
export type CodexHookInput = z.infer<typeof CodexHookInputSchema>;

/** The endpoint's query: the approval deadline, shorter than the hook command's own timeout. */
export const CodexHookQuerySchema = z.object({
  deadline: z.coerce.number().int().min(1).max(86_400).optional(),
});
export type CodexHookQuery = z.infer<typeof CodexHookQuerySchema>;

export type CodexVerdict = { decision: 'allow' | 'deny'; reason: string };

/**
 * The hook output Codex 0.169.0 obeys. A deny is `permissionDecision: "deny"` with its reason (the
 * model reads it). Codex treats `permissionDecision: "allow"` as an unsupported answer and runs
 * the call anyway, so an allow is the PreToolUse output with no decision: explicit, so the hook
 * command can tell it from an empty or foreign answer.
 */
export function codexHookOutput(verdict: CodexVerdict): Record<string, unknown> {
  if (verdict.decision === 'allow') return { hookSpecificOutput: { hookEventName: 'PreToolUse' } };
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      // Codex runs a call whose deny reason is empty, so there always is one.
      permissionDecisionReason: verdict.reason.trim() || 'Gatehouse denied the call',
    },
  };
}

/** Parses the body's fields; another event or a missing session is a 400 naming the field. */
export function parseCodexHookInput(body: unknown): CodexHookInput {
  const parsed = CodexHookInputSchema.safeParse(body);
  if (!parsed.success) throw AppError.fromZod(parsed.error, 'body');
  return parsed.data;
}

/**
 * Decides one PreToolUse call for `owner`. Codex has no ask of its own that a hook can reach, so a
 * person always decides an ask here. A patch touching several files is one decision per file, in
 * order: the first that is not an allow denies the whole patch. A human's edit cannot be handed
 * back (Codex rejects a rewrite without an allow it does not support), so an edited approval denies.
 */
export async function decideCodexHook(
  gate: ExternalGate,
  owner: string,
  input: CodexHookInput,
  query: CodexHookQuery,
  signal: AbortSignal,
): Promise<CodexVerdict> {
  const mapped = mapCodexCall({ tool_name: input.tool_name, tool_input: input.tool_input, cwd: input.cwd });
  if (!mapped.ok) return { decision: 'deny', reason: `Gatehouse refused the call: ${mapped.reason}` };
  const session = hookSession(CODEX, owner, input);
  const reasons: string[] = [];
  for (const call of mapped.calls) {
    const decided = await gate.decide(
      session,
      {
        tool: call.tool,
        params: call.params,
        risk: call.risk,
        ...(call.paramKinds ? { paramKinds: call.paramKinds } : {}),
        ...hookCallPlace(CODEX, input),
        // Codex takes no edit back (below): an approver's edit is refused before it is stored.
        editable: null,
        original: mapped.original,
      },
      { signal, waitForHuman: true, ...(query.deadline ? { timeoutS: query.deadline } : {}) },
    );
    // With waitForHuman an ask never comes back; were it to, it must not read as an allow.
    if (decided.decision !== 'allow') return { decision: 'deny', reason: decided.reason };
    if (decided.edited) {
      return {
        decision: 'deny',
        reason: `The approver edited the call, and Codex's ${mapped.original.tool} cannot run an edit`,
      };
    }
    reasons.push(decided.reason);
  }
  return { decision: 'allow', reason: reasons.join('; ') };
}
