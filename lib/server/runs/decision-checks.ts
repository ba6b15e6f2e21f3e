// What the server checks of a decision beyond Always Allow, before anything is stored (so a
// refused one leaves the relay pending): an edited call must pass its tool's schema (400 naming
// each field under `response.params`), no deny rule may match it (409 with the decision), and no
// ask rule may want more approvers than the relay was asked with (409); an
// approval of a relay whose rule names approvers (`approvals`, one or several) must come from a
// role the rule names (403).
import { z } from 'zod';
import { builtinTools, type ToolDefinition } from '../../agent';
import { checkEdit, editRefusal } from '../../agent/loop/edit';
import { approverRoles, compilePolicy, type Policy } from '../../policy';
import type { RelayRequest, RelayResponse } from '../../relay';
import { runnableEdit } from '../external/editable';
import { AppError } from '../http/errors';
import { relayPlace } from './relay-place';

/** The response with its edited params as the tool parses them; throws 400/409 when refused. */
export function checkedEdit(
  response: RelayResponse,
  relay: RelayRequest,
  policy: Policy,
  workspaceRoot: string,
): RelayResponse {
  if (!response.approved || response.params === undefined) return response;
  assertEditRunnable(response.params, relay);
  // Where the call acts (an outside agent's: its cwd and home), as its decision judged it.
  const { workspaceRoot: workspace, ...place } = relayPlace(relay, workspaceRoot);
  const check = checkEdit(toolOf(relay), response.params, {
    policy: compilePolicy(policy),
    agentId: relay.agentId,
    workspace,
    approvals: relay.approvals,
    place,
  });
  if (check.ok) return { ...response, params: check.params };
  if (check.kind === 'invalid') {
    const fields = check.issues.map((issue) => ({
      path: ['response.params', ...(issue.path ? [issue.path] : [])].join('.'),
      message: issue.message,
    }));
    throw AppError.badRequest(`The edited call is not valid: ${fields[0]!.path} ${fields[0]!.message}`, fields);
  }
  if (check.kind === 'needs_approvals')
    throw new AppError('conflict:edit_needs_approvals', 409, editRefusal(check), {
      approvals: check.needed,
      fields: [{ path: 'response.params', message: editRefusal(check) }],
    });
  throw new AppError('conflict:edit_denied', 409, `The edited call is denied: ${check.decision.explanation}`, {
    decision: check.decision,
    fields: [{ path: 'response.params', message: check.decision.explanation }],
  });
}

/**
 * 409 when the call's CLI cannot run this edit (`place.editable`: a hook takes back one param of
 * it, or none): refused before anything is stored, so no approval, grant or audit row says it ran.
 */
function assertEditRunnable(params: Record<string, unknown>, relay: RelayRequest): void {
  const editable = relay.place?.editable;
  if (editable === undefined || runnableEdit(editable, relay.params, params) !== undefined) return;
  const what = editable
    ? `only its ${editable.field} can be edited${editable.prefix ? ` (keeping ${JSON.stringify(editable.prefix)} at its start)` : ''}`
    : 'it cannot run an edit of this call';
  const message = `The agent cannot run this edit: ${what}. Approve the call as it is, or deny it.`;
  throw new AppError('conflict:edit_not_runnable', 409, message, {
    fields: [{ path: 'response.params', message }],
  });
}

/** 403 when the decider's role may not count toward the relay's named approvers (the rule's roles, else approver or admin). */
export function assertQuorumRole(response: RelayResponse, relay: RelayRequest, role: string): void {
  if (!response.approved || relay.approvals === undefined) return;
  const roles = approverRoles(relay.approvals);
  if (roles.includes(role)) return;
  throw new AppError(
    'forbidden:relay_quorum_role',
    403,
    roles.length === 0
      ? 'Nobody may approve this call: the rules of its parts name approver roles with none in common. You may deny it.'
      : `This call needs approvals from ${roles.join(' or ')}; your role (${role}) does not count. You may deny it.`,
  );
}

/** The built-in tool of the relay, or (an outside agent's tool) any object of parameters under the relay's risk. */
function toolOf(relay: RelayRequest): ToolDefinition {
  const builtin = builtinTools.find((t) => t.name === relay.tool);
  if (builtin) return builtin as ToolDefinition;
  return {
    name: relay.tool,
    description: '',
    inputSchema: z.record(z.string(), z.unknown()),
    risk: relay.risk ?? 'destructive',
    execute: async () => ({ output: '' }),
  } as unknown as ToolDefinition;
}
