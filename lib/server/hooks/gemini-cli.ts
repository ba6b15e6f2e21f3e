// Gemini CLI's BeforeTool hook protocol: the JSON its command hook receives on stdin (which the hook
// command, scripts/gatehouse-hook.mjs, posts here unchanged) and the JSON it obeys on stdout. The
// call is mapped onto Gatehouse's tools (lib/policy/gemini-cli) and decided by the outside-agent
// gate; every way of failing is a denial, never an allow.
import { z } from 'zod';
import { mapGeminiCliCall } from '../../policy/gemini-cli/map-call';
import { AppError } from '../http/errors';
import type { ExternalDecision } from '../external/types';
import type { ExternalGate } from '../external/external-gate';
import { runnableEdit, type EditableField } from '../external/editable';
import { hookCallPlace, hookSession, HookToolNameSchema, type HookClient } from './hook-call';

export const GEMINI_CLI_AGENT = 'gemini-cli';
// Gemini CLI keeps its transcripts under `<home>/.gemini/tmp/` and says where in `transcript_path`.
const GEMINI_CLI: HookClient = { agent: GEMINI_CLI_AGENT, label: 'Gemini CLI', transcripts: '/.gemini/tmp/' };

/** The fields Gatehouse reads; Gemini CLI sends more (timestamp, mcp_context, ...), ignored. */
export const GeminiCliHookInputSchema = z.looseObject({
  session_id: z.string().min(1).max(200),
  cwd: z.string().max(4096).optional(),
  hook_event_name: z.literal('BeforeTool', { message: 'hook_event_name must be BeforeTool' }),
  tool_name: HookToolNameSchema,
  tool_input: z.unknown(),
});
export type GeminiCliHookInput = z.infer<typeof GeminiCliHookInputSchema>;

/** The endpoint's query: the approval deadline, shorter than the hook command's own timeout. */
export const GeminiCliHookQuerySchema = z.object({
  deadline: z.coerce.number().int().min(1).max(86_400).optional(),
});
export type GeminiCliHookQuery = z.infer<typeof GeminiCliHookQuerySchema>;

export type GeminiVerdict = { decision: 'allow' | 'deny'; reason: string; toolInput?: Record<string, unknown> };

/**
 * The hook output Gemini CLI obeys: `decision` `deny` blocks the call and sends `reason` to the
 * model; `hookSpecificOutput.tool_input` is merged over the model's arguments (a human's edit).
 */
export function geminiHookOutput(verdict: GeminiVerdict): Record<string, unknown> {
  return {
    decision: verdict.decision,
    reason: verdict.reason,
    ...(verdict.toolInput ? { hookSpecificOutput: { tool_input: verdict.toolInput } } : {}),
  };
}

/** Parses the body's fields; another event or a missing session is a 400 naming the field. */
export function parseGeminiHookInput(body: unknown): GeminiCliHookInput {
  const parsed = GeminiCliHookInputSchema.safeParse(body);
  if (!parsed.success) throw AppError.fromZod(parsed.error, 'body');
  return parsed.data;
}

/**
 * Decides one BeforeTool call for `owner`. A `tool_input` Gatehouse cannot read is denied with the
 * reason; a person always decides an ask here (Gemini CLI's own prompt is not consulted), and an
 * approval edited by that person reaches Gemini CLI as `tool_input`.
 */
export async function decideGeminiHook(
  gate: ExternalGate,
  owner: string,
  input: GeminiCliHookInput,
  query: GeminiCliHookQuery,
  signal: AbortSignal,
): Promise<GeminiVerdict> {
  const mapped = mapGeminiCliCall({ tool_name: input.tool_name, tool_input: input.tool_input, cwd: input.cwd });
  if (!mapped.ok) return { decision: 'deny', reason: `Gatehouse refused the call: ${mapped.reason}` };
  const decided: ExternalDecision = await gate.decide(
    hookSession(GEMINI_CLI, owner, input),
    {
      tool: mapped.call.tool,
      params: mapped.call.params,
      risk: mapped.risk,
      ...(mapped.call.below ? { searchRoot: mapped.call.below } : {}),
      ...hookCallPlace(GEMINI_CLI, input),
      editable: editableOf(mapped.original, mapped.call.params),
      original: mapped.original,
    },
    { signal, waitForHuman: true, ...(query.deadline ? { timeoutS: query.deadline } : {}) },
  );
  // With waitForHuman an ask never comes back; were it to, it must not read as an allow.
  if (decided.decision !== 'allow') return { decision: 'deny', reason: decided.reason };
  if (!decided.edited) return { decision: 'allow', reason: decided.reason };
  // Run what the approver approved, or nothing: an edit Gemini CLI's tool cannot take is a denial.
  const toolInput = unmapEdit(mapped.original, mapped.call.params, decided.params);
  if (!toolInput)
    return {
      decision: 'deny',
      reason: `The approver edited the call, and Gemini CLI's ${mapped.original.tool} cannot run the edit`,
    };
  return { decision: 'allow', reason: decided.reason, toolInput };
}

/**
 * The one field Gemini CLI takes back from an approver's edit: a shell command's, which must keep
 * the `cd` into its dir_path it was judged with (Gemini CLI still starts it there), or a written
 * file's content; else none.
 */
function editableOf(
  { tool, input: raw }: { tool: string; input: unknown },
  mapped: Record<string, unknown>,
): EditableField {
  if (tool === 'run_shell_command') {
    const prefix = cdPrefix(mapped, raw);
    return { field: 'command', ...(prefix ? { prefix } : {}) };
  }
  return tool === 'write_file' ? { field: 'content' } : null;
}

/** The `cd '<dir_path>' && ` the mapped command starts with, or ''. */
function cdPrefix(mapped: Record<string, unknown>, raw: unknown): string {
  const command = mapped.command as string;
  const ran = (raw as { command?: unknown }).command;
  return typeof ran === 'string' && command.endsWith(ran) ? command.slice(0, command.length - ran.length) : '';
}

/** A human's edit of the mapped call, as the field of Gemini CLI's own input it takes back. */
function unmapEdit(
  original: { tool: string; input: unknown },
  mapped: Record<string, unknown>,
  params: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const editable = editableOf(original, mapped);
  const value = runnableEdit(editable, mapped, params);
  return value === undefined ? undefined : { [editable!.field]: value };
}
