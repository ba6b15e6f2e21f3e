// Edit, then approve: a human's edited parameters for a waiting call. The tool stays the relay's;
// the edit must pass the tool's schema and is evaluated again by the policy, where a deny counts
// (the edit is the approver's, so an ask or a missing allow is their approval), and so does an ask
// rule that wants more approvers, or other roles, than the relay was asked with: an approval of the
// relay could otherwise run a call that needs several people on one person's word. Used before
// a decision is recorded (the server's route, the library's `respond`) and again by the loop before
// the edited call runs, so an edit that reached the store any other way still runs only if it passes.
import {
  approvalRequirement,
  DEFAULT_APPROVER_ROLES,
  evaluate,
  type ApprovalRequirement,
  type CompiledPolicy,
  type Decision,
  type EvaluationContext,
} from '../../policy';
import type { ToolDefinition } from '../tools/types';

export interface EditIssue {
  /** Dotted path under `response.params` (empty for the whole object). */
  path: string;
  message: string;
}

export type EditCheck =
  | { ok: true; params: Record<string, unknown> }
  | { ok: false; kind: 'invalid'; issues: EditIssue[] }
  | { ok: false; kind: 'denied'; decision: Decision }
  /** The edited call wants more approvers (or other roles) than the relay was asked with. */
  | { ok: false; kind: 'needs_approvals'; needed: ApprovalRequirement };

export interface EditContext {
  policy: CompiledPolicy;
  /** The agent that made the call (`main` for the top level). */
  agentId: string;
  workspace: string;
  /** What the relay was asked with: several approvers (the ask rule's `approvals`), else one. */
  approvals?: ApprovalRequirement | undefined;
  /** An outside agent's call: the home `~/` means, the folder a search reads below, its param kinds. */
  place?: Pick<EvaluationContext, 'homeDir' | 'searchRoot' | 'paramKinds'>;
}

/** Whether a relay asked with `asked` already demands what `needed` demands (as many people, no other roles). */
function demands(asked: ApprovalRequirement | undefined, needed: ApprovalRequirement): boolean {
  if (!asked || asked.count < needed.count) return false;
  const allowed: readonly string[] = needed.roles ?? DEFAULT_APPROVER_ROLES;
  return (asked.roles ?? DEFAULT_APPROVER_ROLES).every((role) => allowed.includes(role));
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
  const editedCall = { tool: tool.name, params: edited, ...(ctx.agentId === 'main' ? {} : { agent: ctx.agentId }) };
  const evalContext: EvaluationContext = {
    risk: tool.risk,
    paramKinds: tool.paramKinds,
    ...ctx.place,
    workspaceRoot: ctx.workspace,
  };
  const decision = evaluate(ctx.policy, editedCall, evalContext);
  if (decision.action === 'deny') return { ok: false, kind: 'denied', decision };
  const needed = approvalRequirement(ctx.policy, decision, editedCall, evalContext);
  if (needed && !demands(ctx.approvals, needed)) return { ok: false, kind: 'needs_approvals', needed };
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
  readonly code: 'invalid:params' | 'conflict:edit_denied' | 'conflict:edit_needs_approvals';
  constructor(
    readonly relayId: string,
    readonly check: Exclude<EditCheck, { ok: true }>,
  ) {
    super(editRefusal(check));
    this.code =
      check.kind === 'invalid'
        ? 'invalid:params'
        : check.kind === 'denied'
          ? 'conflict:edit_denied'
          : 'conflict:edit_needs_approvals';
    this.name = 'EditRefusedError';
  }
}

/** Why an edit is refused, in one sentence. */
export function editRefusal(check: Exclude<EditCheck, { ok: true }>): string {
  if (check.kind === 'invalid')
    return `The edited call is not valid: ${check.issues.map((i) => `response.params${i.path ? `.${i.path}` : ''} ${i.message}`).join('; ')}`;
  if (check.kind === 'denied') return `The edited call is denied by the policy: ${check.decision.explanation}`;
  const roles = check.needed.roles ?? DEFAULT_APPROVER_ROLES;
  return `The edited call needs the approval of ${check.needed.count} people (${roles.join(' or ')}), more than this request was asked with: approve the call as asked, or deny it`;
}
