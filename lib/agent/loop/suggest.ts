// What a relay offers for Always Allow: the rules it would add (derived for the call, kept only if
// they could be stored as a grant for it) and the verdict on them under the policy that asked,
// so the approver is offered Always Allow only when the grant would cover this very call; and
// whether Auto-approve would allow the call (what "approve this and all later calls" may settle).
import {
  alwaysAllowVerdict,
  derivePermission,
  evaluate,
  grantFitsCall,
  type AlwaysAllowVerdict,
  type CompiledPolicy,
  type GrantContext,
  type Rule,
  type ToolCall,
} from '../../policy';
import type { ToolDefinition, ToolEnvironment } from '../tools/types';

export interface Suggestion {
  suggestedRules: Rule[];
  alwaysAllow: AlwaysAllowVerdict;
  /** Auto-approve (bypassPermissions) would allow the call: no ask rule, nothing the tool found. */
  autoApprove: boolean;
}

/**
 * `askedByHook`: a dynamic `interruptOn.shouldApprove` applies to the tool (it may ask in any mode).
 * `place`: an outside agent's call, judged where it acts (the home `~/` means, the folder a search
 * reads below), as its decision was.
 */
export function suggestAlwaysAllow(
  policy: CompiledPolicy,
  tool: ToolDefinition,
  input: Record<string, unknown>,
  call: ToolCall,
  env: ToolEnvironment,
  inspection: string | undefined,
  askedByHook: boolean,
  place: Pick<GrantContext, 'homeDir' | 'searchRoot'> = {},
): Suggestion {
  const ctx: GrantContext = { workspaceRoot: env.workspace, paramKinds: tool.paramKinds, risk: tool.risk, ...place };
  const autoApprove =
    inspection === undefined &&
    !askedByHook &&
    evaluate(policy, call, { ...ctx, mode: 'bypassPermissions' }).action === 'allow';
  return { ...alwaysAllowOf(policy, tool, input, call, env, ctx, inspection), autoApprove };
}

function alwaysAllowOf(
  policy: CompiledPolicy,
  tool: ToolDefinition,
  input: Record<string, unknown>,
  call: ToolCall,
  env: ToolEnvironment,
  ctx: GrantContext,
  inspection?: string,
): Omit<Suggestion, 'autoApprove'> {
  try {
    const derived = tool.derivePermission ? tool.derivePermission(input, env) : derivePermission(call, ctx);
    // Only what would allow this call again (a part that writes a file, say, no allow rule can).
    const suggestedRules = derived.filter((rule) => grantFitsCall(rule, call, ctx));
    // What the tool itself found (inspectCall) asks whatever allowed the call, grants included.
    if (inspection !== undefined)
      return {
        suggestedRules,
        alwaysAllow: { covers: false, reason: `Needs approval whatever is granted: ${inspection}.` },
      };
    return { suggestedRules, alwaysAllow: alwaysAllowVerdict(policy, call, suggestedRules, ctx, derived) };
  } catch {
    return { suggestedRules: [], alwaysAllow: { covers: false, reason: 'No rule can be suggested for this call.' } };
  }
}
