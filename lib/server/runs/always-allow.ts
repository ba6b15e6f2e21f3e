// The server's rules of Always Allow, applied to a decision before it is stored (so a refused one
// leaves the relay pending): `scope: 'global'` (a grant for everyone) needs `grants:manage` (admins),
// checked by the route; the rules supplied with the decision must fit the relay's call, and a
// decider without `grants:manage` may supply only the engine's suggestions, unchanged, or the
// exact call (lib/policy checkGrantRules). Without rules, the relay's suggestions are stored. Either
// way the grant must cover this very call under the policy (alwaysAllowVerdict): an edited rule that
// could never apply to it (a redirection, an ask rule that asks whatever is granted) is refused; a
// plain Always Allow whose suggestion could never apply approves the call once and grants nothing.
import { builtinTools } from '../../agent';
import {
  alwaysAllowVerdict,
  checkGrantRules,
  compilePolicy,
  type AlwaysAllowVerdict,
  type Policy,
  type Rule,
  type ToolCall,
} from '../../policy';
import type { RelayRequest, RelayResponse } from '../../relay';
import { AppError, type FieldError } from '../http/errors';
import { relayPlace } from './relay-place';

export interface GrantAuthority {
  /** May edit the rules and grant for everyone (`grants:manage`: admins). */
  mayManageGrants: boolean;
}

/** 403 naming `response.scope` when the decider may not grant for everyone. */
export function assertScopeAllowed(response: RelayResponse, authority: GrantAuthority): void {
  if (!isAlwaysAllow(response) || response.scope !== 'global' || authority.mayManageGrants) return;
  const message = 'only an admin may grant for everyone; use scope "session" (this session only)';
  throw new AppError('forbidden:grants:manage', 403, `Not allowed: response.scope ${message}`, {
    fields: [{ path: 'response.scope', message }],
  });
}

export const isAlwaysAllow = (response: RelayResponse) => response.approved && response.always === true;

/**
 * The response as it will be stored: its rules replaced by the ones checkGrantRules accepted (for a
 * decider who may not edit, the engine's own copies), or a 422 naming each refused rule, or naming
 * `response.always` / `response.rule` when the grant would not cover the call under `policy`.
 */
export function checkedAlwaysAllow(
  response: RelayResponse,
  relay: RelayRequest,
  authority: GrantAuthority,
  workspaceRoot: string,
  policy: Policy,
): RelayResponse {
  if (!isAlwaysAllow(response)) return response;
  const call: ToolCall = {
    tool: relay.tool,
    params: relay.params,
    ...(relay.agentId === 'main' ? {} : { agent: relay.agentId }),
  };
  const tool = builtinTools.find((t) => t.name === relay.tool);
  const place = relayPlace(relay, workspaceRoot);
  const ctx = { paramKinds: tool?.paramKinds, ...place, risk: relay.risk ?? tool?.risk };
  if (response.rule === undefined) {
    // The verdict made when the relay was raised, under the policy the run decided with. A plain
    // Always Allow (a client that cannot show why, such as the seed design's) whose grant would
    // never apply is what the person can have: the call approved once, and no useless grant.
    const verdict =
      relay.alwaysAllow ?? alwaysAllowVerdict(compilePolicy(policy), call, relay.suggestedRules ?? [], ctx);
    if (verdict.covers) return response;
    const { always: _always, scope: _scope, ...once } = response;
    return { ...once, reason: `Approved once: Always Allow ${neverApplies(verdict)}` };
  }
  const supplied: Rule[] = Array.isArray(response.rule) ? response.rule : [response.rule];
  const result = checkGrantRules(
    supplied,
    { call, suggested: relay.suggestedRules ?? [], mayEdit: authority.mayManageGrants },
    ctx,
  );
  if (result.ok) {
    assertCovers(alwaysAllowVerdict(compilePolicy(policy), call, result.rules, ctx), 'response.rule');
    return { ...response, rule: result.rules };
  }
  const at = (index: number, path: string) =>
    ['response.rule', ...(Array.isArray(response.rule) ? [String(index)] : []), ...(path ? [path] : [])].join('.');
  const fields: FieldError[] = result.issues.map((issue) => ({
    path: at(issue.index, issue.path),
    message: issue.message,
  }));
  throw new AppError(
    'unprocessable:rule',
    422,
    `Not a rule Always Allow may add here: ${fields[0]!.path} ${fields[0]!.message}`,
    { fields },
  );
}

/** Why a grant would never apply to the call, as a sentence's end. */
function neverApplies(verdict: AlwaysAllowVerdict): string {
  const because = verdict.rule
    ? `${verdict.reason ?? ''} An ask rule asks whatever is granted.`
    : (verdict.reason ?? 'no rule can be suggested for it.');
  return `would never apply to this call, so it would ask again: ${because.trim()}`;
}

/** 422 at `path` when an edited grant would not cover the call: the same call would only ask again. */
function assertCovers(verdict: AlwaysAllowVerdict, path: string): void {
  if (verdict.covers) return;
  const message = `the grant ${neverApplies(verdict)} Approve once instead.`;
  throw new AppError('unprocessable:always', 422, `Not an Always Allow that keeps its word: ${path} ${message}`, {
    fields: [{ path, message }],
  });
}
