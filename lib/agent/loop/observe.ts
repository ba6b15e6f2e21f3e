// The decision observer port: whoever runs the agent may watch every real decision the gate makes
// (the server compares it with a shadow policy). Observing never changes a decision: the observer
// is called after the decision is made, its errors are swallowed, and it must return at once
// (queue the observation; do any evaluation or I/O later, off the decision path).
import type { CompiledPolicy, Decision, EvaluationContext, Mode, Policy, ToolCall } from '../../policy';
import { applyInspection, applyShouldApprove } from './gate';

export interface DecisionObservation {
  runId: string;
  sessionId: string;
  toolCallId: string;
  /** The agent that made the call (`main`, or a subagent's id). */
  agentId: string;
  /** What was evaluated: the call as the gate saw it, validated. */
  call: ToolCall;
  context: EvaluationContext;
  /** The decision as enforced. */
  decision: Decision;
  /** The policy the call was judged by: the agent's, plus the run's permissions and a subagent's rules after it. */
  policy: Policy;
  /** The agent's policy `policy` was built on, as it stood for this call (a policy source may change it between calls). */
  agentPolicy?: CompiledPolicy;
  /** What the gate applies after the policy (a dynamic shouldApprove, the tool's inspection), to judge another policy's decision alike. */
  adjust(decision: Decision): Decision;
}

export interface DecisionObserver {
  observe(observation: DecisionObservation): void;
  /** False while there is nothing to watch for: the gate then builds no observation at all. */
  readonly active?: boolean;
}

export interface Adjustments {
  shouldApprove?: (args: Record<string, unknown>) => boolean;
  inspection?: string;
  mode: Mode;
}

/** The gate's post-policy steps for a call, as a function of the policy's decision. */
export function adjuster(
  input: Record<string, unknown>,
  tool: string,
  { shouldApprove, inspection, mode }: Adjustments,
): (decision: Decision) => Decision {
  return (decision) => {
    let adjusted = decision;
    if (shouldApprove && adjusted.action !== 'deny')
      adjusted = applyShouldApprove(adjusted, shouldApprove, input, tool);
    if (inspection !== undefined) adjusted = applyInspection(adjusted, inspection, mode);
    return adjusted;
  };
}

/** Hands the observation over; nothing an observer does reaches the decision. */
export function notifyObserver(observer: DecisionObserver | undefined, observation: () => DecisionObservation): void {
  if (!observer || observer.active === false) return;
  try {
    observer.observe(observation());
  } catch {
    // An observer that fails has no say in the decision.
  }
}
