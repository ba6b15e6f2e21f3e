// Claude Code's hook protocol: what its `http` hook POSTs for PreToolUse and PermissionRequest, and
// the answer it obeys. The call is mapped onto Gatehouse's tools (lib/policy/claude-code) and
// decided by the outside-agent gate; every way of failing is a denial, never an allow.
import { z } from 'zod';
import { mapClaudeCodeCall } from '../../policy/claude-code/map-call';
import { AppError } from '../http/errors';
import type { ExternalDecision } from '../external/types';
import type { ExternalGate } from '../external/external-gate';
import { runnableEdit, type EditableField } from '../external/editable';
import { hookCallPlace, hookSession, HookToolNameSchema, type HookClient } from './hook-call';

export const CLAUDE_CODE_AGENT = 'claude-code';
// Claude Code keeps its transcripts under `<home>/.claude/projects/` and says where in `transcript_path`.
const CLAUDE_CODE: HookClient = { agent: CLAUDE_CODE_AGENT, label: 'Claude Code', transcripts: '/.claude/projects/' };
export const HOOK_EVENTS = ['PreToolUse', 'PermissionRequest'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The fields Gatehouse reads; Claude Code sends more (transcript_path, permission_suggestions, ...), ignored. */
export const ClaudeCodeHookInputSchema = z.looseObject({
  session_id: z.string().min(1).max(200),
  cwd: z.string().max(4096).optional(),
  permission_mode: z.string().max(100).optional(),
  hook_event_name: z.enum(HOOK_EVENTS, { message: `hook_event_name must be one of ${HOOK_EVENTS.join(', ')}` }),
  tool_name: HookToolNameSchema,
  tool_input: z.unknown(),
  tool_use_id: z.string().min(1).max(200).optional(),
});
export type ClaudeCodeHookInput = z.infer<typeof ClaudeCodeHookInputSchema>;

/** The endpoint's query: the approval deadline (shorter than the hook's own timeout), and who answers an ask. */
export const ClaudeCodeHookQuerySchema = z.object({
  deadline: z.coerce.number().int().min(1).max(86_400).optional(),
  /** `claude`: an ask is handed back to Claude Code's own prompt; `gatehouse` (default): a person decides here. */
  ask: z.enum(['gatehouse', 'claude']).optional(),
  /**
   * The name this Claude Code gives Gatehouse's own MCP server (`/api/mcp`). A call named
   * `mcp__<name>__<tool>` is let through without a decision only when `<tool>` is exactly a name
   * /api/mcp serves to this hook's token (a built-in or upstream tool as it lists them, within the
   * token's choice of tools): /api/mcp gates that call itself, for the same user, so it is asked
   * once. Any other `mcp__<name>__*` call, or any call while that cannot be known, is decided here
   * like every other MCP tool. As trusted as the rest of the hook's settings, which say where to ask.
   */
  mcp: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an MCP server name (letters, digits, _ and -)')
    .optional(),
});
export type ClaudeCodeHookQuery = z.infer<typeof ClaudeCodeHookQuerySchema>;

/** What decideHook needs: the outside-agent gate, and what /api/mcp serves to this hook's caller. */
export interface ClaudeCodeHookDeps {
  gate: Pick<ExternalGate, 'decide'>;
  /**
   * Whether /api/mcp serves a tool of exactly this name (as it lists it) to the hook's token. A
   * throw or a rejection means it cannot be known: the call is decided through the gate then.
   */
  mcpServes(name: string): Promise<boolean>;
}

type Verdict = { decision: 'allow' | 'deny' | 'ask'; reason: string; updatedInput?: Record<string, unknown> };

/** The hook output Claude Code obeys, for the event it asked about. */
export function hookOutput(event: HookEvent, verdict: Verdict): Record<string, unknown> {
  if (event === 'PreToolUse')
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: verdict.decision,
        permissionDecisionReason: verdict.reason,
        ...(verdict.updatedInput ? { updatedInput: verdict.updatedInput } : {}),
      },
    };
  // PermissionRequest is Claude Code's own prompt: "ask" leaves it to that prompt (no decision).
  if (verdict.decision === 'ask') return {};
  return {
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision:
        verdict.decision === 'allow'
          ? { behavior: 'allow', ...(verdict.updatedInput ? { updatedInput: verdict.updatedInput } : {}) }
          : { behavior: 'deny', message: verdict.reason },
    },
  };
}

/** Parses the body's fields; an unknown event or a missing session is a 400 naming the field. */
export function parseHookInput(body: unknown): ClaudeCodeHookInput {
  const parsed = ClaudeCodeHookInputSchema.safeParse(body);
  if (!parsed.success) throw AppError.fromZod(parsed.error, 'body');
  return parsed.data;
}

/** The `<tool>` of `mcp__<mcp>__<tool>`: a call Claude Code sends to the server it names `mcp`; else undefined. */
export function ownMcpToolName(toolName: unknown, mcp: string | undefined): string | undefined {
  if (!mcp || typeof toolName !== 'string') return undefined;
  const prefix = `mcp__${mcp}__`;
  return toolName.length > prefix.length && toolName.startsWith(prefix) ? toolName.slice(prefix.length) : undefined;
}

/** True only when /api/mcp is known to serve the call's tool to this caller (fail-safe: unsure is false). */
async function gatedByOwnMcp(deps: ClaudeCodeHookDeps, toolName: unknown, mcp: string | undefined) {
  const name = ownMcpToolName(toolName, mcp);
  if (name === undefined) return false;
  try {
    return (await deps.mcpServes(name)) === true;
  } catch {
    return false;
  }
}

/**
 * Decides one hook call for `owner`. A `tool_input` Gatehouse cannot read is denied with the reason
 * (Claude Code would otherwise go on); an edited approval reaches Claude Code as `updatedInput`.
 */
export async function decideHook(
  deps: ClaudeCodeHookDeps,
  owner: string,
  input: ClaudeCodeHookInput,
  query: ClaudeCodeHookQuery,
  signal: AbortSignal,
): Promise<Verdict> {
  if (await gatedByOwnMcp(deps, input.tool_name, query.mcp))
    return { decision: 'allow', reason: "Gatehouse's MCP server decides this call itself (asked once)" };
  const mapped = mapClaudeCodeCall({ tool_name: input.tool_name, tool_input: input.tool_input, cwd: input.cwd });
  if (!mapped.ok) return { decision: 'deny', reason: `Gatehouse refused the call: ${mapped.reason}` };
  const decided: ExternalDecision = await deps.gate.decide(
    hookSession(CLAUDE_CODE, owner, input),
    {
      tool: mapped.call.tool,
      params: mapped.call.params,
      risk: mapped.risk,
      ...(mapped.call.below ? { searchRoot: mapped.call.below } : {}),
      ...(input.tool_use_id ? { callId: input.tool_use_id } : {}),
      ...hookCallPlace(CLAUDE_CODE, input),
      editable: EDITABLE[mapped.original.tool] ?? null,
      original: mapped.original,
    },
    { signal, waitForHuman: query.ask !== 'claude', ...(query.deadline ? { timeoutS: query.deadline } : {}) },
  );
  if (decided.decision !== 'allow') return { decision: decided.decision, reason: decided.reason };
  if (!decided.edited) return { decision: 'allow', reason: decided.reason };
  // Run what the approver approved, or nothing: an edit Claude Code's tool cannot take is a denial.
  const updatedInput = unmapEdit(mapped.original, mapped.call.params, decided.params);
  if (!updatedInput)
    return {
      decision: 'deny',
      reason: `The approver edited the call, and Claude Code's ${mapped.original.tool} cannot run the edit`,
    };
  return { decision: 'allow', reason: decided.reason, updatedInput };
}

/** The one field of each tool Claude Code takes back from an approver's edit; other tools, none. */
const EDITABLE: Record<string, EditableField> = {
  Bash: { field: 'command' },
  Write: { field: 'content' },
  WebFetch: { field: 'url' },
};

/** A human's edit of the mapped call, as Claude Code's own input (the one field it takes back). */
function unmapEdit(
  original: { tool: string; input: unknown },
  mapped: Record<string, unknown>,
  params: Record<string, unknown>,
) {
  const editable = EDITABLE[original.tool] ?? null;
  const value = runnableEdit(editable, mapped, params);
  return value === undefined ? undefined : { ...(original.input as Record<string, unknown>), [editable!.field]: value };
}
