// The server's rules of Always Allow, applied to a decision before it is stored (so a refused one
// leaves the relay pending): `scope: 'global'` (a grant for everyone) needs `grants:manage` (admins),
// checked by the route; the rules supplied with the decision must fit the relay's call, and a
// decider without `grants:manage` may supply only the engine's suggestions, unchanged, or the
// exact call (lib/policy checkGrantRules). Without rules, the relay's suggestions are stored.
import { builtinTools } from '../../agent';
import { checkGrantRules, type Rule, type ToolCall } from '../../policy';
import type { RelayRequest, RelayResponse } from '../../relay';
import { AppError, type FieldError } from '../http/errors';

export interface GrantAuthority {
  /** May edit the rules and grant for everyone (`grants:manage`: admins). */
  mayManageGrants: boolean;
}

/** 403 naming `response.scope` when the decider may not grant for everyone. */
export function assertScopeAllowed(response: RelayResponse, authority: GrantAuthority): void {
  if (!isAlwaysAllow(response) || response.scope !== 'global' || authority.mayManageGrants) return;
  const message = 'only an admin may grant for everyone; use scope "session" (this session only)';
  throw new AppError('forbidden:grants:manage', 403, `Not allowed: response.scope ${message}`, { fields: [{ path: 'response.scope', message }] });
}

export const isAlwaysAllow = (response: RelayResponse) => response.approved && response.always === true;

/**
 * The response as it will be stored: its rules replaced by the ones checkGrantRules accepted (for a
 * decider who may not edit, the engine's own copies), or a 422 naming each refused rule.
 */
export function checkedAlwaysAllow(response: RelayResponse, relay: RelayRequest, authority: GrantAuthority, workspaceRoot: string): RelayResponse {
  if (!isAlwaysAllow(response) || response.rule === undefined) return response;
  const supplied: Rule[] = Array.isArray(response.rule) ? response.rule : [response.rule];
  const call: ToolCall = { tool: relay.tool, params: relay.params, ...(relay.agentId === 'main' ? {} : { agent: relay.agentId }) };
  const paramKinds = builtinTools.find((tool) => tool.name === relay.tool)?.paramKinds;
  const result = checkGrantRules(supplied, { call, suggested: relay.suggestedRules ?? [], mayEdit: authority.mayManageGrants }, { workspaceRoot, paramKinds });
  if (result.ok) return { ...response, rule: result.rules };
  const at = (index: number, path: string) => ['response.rule', ...(Array.isArray(response.rule) ? [String(index)] : []), ...(path ? [path] : [])].join('.');
  const fields: FieldError[] = result.issues.map((issue) => ({ path: at(issue.index, issue.path), message: issue.message }));
  throw new AppError('unprocessable:rule', 422, `Not a rule Always Allow may add here: ${fields[0]!.path} ${fields[0]!.message}`, { fields });
}
