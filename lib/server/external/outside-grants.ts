// Always Allow for an outside agent's call: the same rule as for Gatehouse's own agent (ask.ts's
// grantAlways). Only allow rules for the relay's own tool that cover the call that runs (the
// edited one, when the approver edited it) are stored (the decision path already checked them
// against the approver's rights); then the calls of this session (or, for a global grant,
// everyone's) that wait in this process and are now covered are settled as approved by the grant.
import type { GrantStore } from '../../agent';
import type { Queries } from '../../db';
import { compilePolicy, evaluate, grantFitsCall, RuleSchema, type Mode, type Rule, type ToolCall } from '../../policy';
import type { DurableRelayBroker, RelayOutcome, RelayRequest } from '../../relay';
import { editedRelay } from '../runs/edited-relay';
import { relayPlace } from '../runs/relay-place';
import { loadPolicy } from '../stores/policy-store';

export interface WaitingOutsideCall {
  /** With where the call acts (`place`): a waiting call is checked against a new grant as it was judged. */
  request: RelayRequest;
}

/** The call's context as its decision had it, but the mode and grants. */
const judgedAs = (request: RelayRequest) => ({ risk: request.risk ?? 'write', ...relayPlace(request, '/') });

interface Deps {
  q: Queries;
  broker: DurableRelayBroker;
  grants: GrantStore;
}

const callOf = (request: RelayRequest): ToolCall => ({
  tool: request.tool,
  params: request.params,
  agent: request.agentId,
});

export async function grantAlwaysForOutside(
  deps: Deps,
  request: RelayRequest,
  outcome: RelayOutcome,
  waiting: ReadonlyMap<string, WaitingOutsideCall>,
): Promise<void> {
  const context = judgedAs(request);
  // An edited call: the grant is the one suggested for the call that runs, not the agent's (as
  // Gatehouse's own agent does, ask.ts), and any rule sent must cover that call.
  const params = outcome.response?.params;
  const ran = params === undefined ? request : editedRelay(request, params, context.workspaceRoot);
  const sent = outcome.response?.rule;
  const candidates: unknown[] = sent === undefined ? ran.suggestedRules : Array.isArray(sent) ? sent : [sent];
  const rules = candidates.flatMap((rule) => {
    const parsed = RuleSchema.safeParse(rule);
    return parsed.success && grantFitsCall(parsed.data, callOf(ran), context) ? [parsed.data] : [];
  });
  if (rules.length === 0) return;
  const scope = outcome.response?.scope ?? 'session';
  await deps.grants.add(request.sessionId, rules, scope, outcome.decidedBy);
  const policy = compilePolicy((await loadPolicy(deps.q)).policy);
  const grantsBySession = new Map<string, Rule[]>();
  /** Each waiting call's run's mode now (null: the run is gone, and its call is left alone). */
  const modes = new Map<string, Mode | null>();
  for (const [id, other] of waiting) {
    if (id === request.id) continue;
    const sessionId = other.request.sessionId;
    if (scope === 'session' && sessionId !== request.sessionId) continue;
    let grants = grantsBySession.get(sessionId);
    if (!grants) grantsBySession.set(sessionId, (grants = await deps.grants.list(sessionId)));
    // Judged as it was asked (its search folder, the home `~/` means), in its run's mode of now.
    const { runId } = other.request;
    if (!modes.has(runId)) {
      const run = await deps.q.runs.getRun({ id: runId });
      modes.set(runId, run ? (run.mode ?? 'default') : null);
    }
    const mode = modes.get(runId);
    if (!mode) continue;
    const again = evaluate(policy, callOf(other.request), { ...judgedAs(other.request), mode, grants });
    if (again.action === 'allow')
      await deps.broker
        .resolve(id, { approved: true, reason: 'Covered by an "always allow" grant' }, 'grant')
        .catch(() => undefined);
  }
}
