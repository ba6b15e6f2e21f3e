// Edit, then approve: a human's edited parameters for a waiting call. The tool stays the relay's;
// the edit must pass the tool's schema and is evaluated again by the policy, where only a deny
// counts (the edit is the approver's, so an ask or a missing allow is their approval). Used before
// a decision is recorded (the server's route, the library's `respond`) and again by the loop before
// the edited call runs, so an edit that reached the store any other way still runs only if it passes.
import { evaluate, type CompiledPolicy, type Decision } from '../../policy';
import type { ToolDefinition } from '../tools/types';

export interface EditIssue {
  /** Dotted path under `response.params` (empty for the whole object). */
  path: string;
  message: string;
}

export type EditCheck =
  | { ok: true; params: Record<string, unknown> }
  | { ok: false; kind: 'invalid'; issues: EditIssue[] }
  | { ok: false; kind: 'denied'; decision: Decision };

export interface EditContext {
  policy: CompiledPolicy;
  /** The agent that made the call (`main` for the top level). */
  agentId: string;
  workspace: string;
}

export function checkEdit(tool: ToolDefinition, params: unknown, ctx: EditContext): EditCheck {
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return { ok: false, kind: 'invalid', issues: [{ path: '', message: 'expected an object of parameters' }] };
  const parsed = tool.inputSchema.safeParse(params);
  if (!parsed.success)
    return {
      ok: false,
      kind: 'invalid',
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    };
  if (typeof parsed.data !== 'object' || parsed.data === null)
    return { ok: false, kind: 'invalid', issues: [{ path: '', message: 'expected an object of parameters' }] };
  const edited = parsed.data as Record<string, unknown>;
  const decision = evaluate(
    ctx.policy,
    { tool: tool.name, params: edited, ...(ctx.agentId === 'main' ? {} : { agent: ctx.agentId }) },
    { risk: tool.risk, paramKinds: tool.paramKinds, workspaceRoot: ctx.workspace },
  );
  if (decision.action === 'deny') return { ok: false, kind: 'denied', decision };
  return { ok: true, params: edited };
}

/** The note the model reads with the result of an edited call: that the approver changed it, and how. */
export function editNote(original: Record<string, unknown>, edited: Record<string, unknown>): string {
  const changed = [...new Set([...Object.keys(original), ...Object.keys(edited)])].filter(
    (key) => JSON.stringify(original[key]) !== JSON.stringify(edited[key]),
  );
  const shown = changed.map((key) => `${key}: ${clip(original[key])} -> ${clip(edited[key])}`).join('; ');
  return `[The approver edited this call before approving it${shown ? ` (${shown})` : ''}. The result below is of the edited call.]`;
}

function clip(value: unknown): string {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A refused edit (the library's `respond`): `invalid` params (by field), or a call the policy denies. */
export class EditRefusedError extends Error {
  readonly code: 'invalid:params' | 'conflict:edit_denied';
  constructor(
    readonly relayId: string,
    readonly check: Exclude<EditCheck, { ok: true }>,
  ) {
    super(
      check.kind === 'invalid'
        ? `The edited call is not valid: ${check.issues.map((i) => `response.params${i.path ? `.${i.path}` : ''} ${i.message}`).join('; ')}`
        : `The edited call is denied by the policy: ${check.decision.explanation}`,
    );
    this.code = check.kind === 'invalid' ? 'invalid:params' : 'conflict:edit_denied';
    this.name = 'EditRefusedError';
  }
}
