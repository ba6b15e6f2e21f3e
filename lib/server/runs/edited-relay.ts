// A relay as if the agent had made the edited call: what Always Allow with an edit is judged
// against (the suggestion derived for the call that runs, and no verdict carried over from the
// original call), so the grant stored is the one the loop derives for the edited call too.
import { builtinTools } from '../../agent';
import { derivePermission, grantFitsCall, type GrantContext, type ToolCall } from '../../policy';
import type { RelayRequest } from '../../relay';
import { relayPlace } from './relay-place';

export function editedRelay(relay: RelayRequest, params: Record<string, unknown>, workspaceRoot: string): RelayRequest {
  const tool = builtinTools.find((t) => t.name === relay.tool);
  const call: ToolCall = { tool: relay.tool, params, ...(relay.agentId === 'main' ? {} : { agent: relay.agentId }) };
  const ctx = { paramKinds: tool?.paramKinds, ...relayPlace(relay, workspaceRoot), risk: relay.risk ?? tool?.risk };
  const { alwaysAllow: _verdict, ...rest } = relay;
  return { ...rest, params, suggestedRules: suggestionsFor(tool, call, params, ctx) };
}

function suggestionsFor(
  tool: (typeof builtinTools)[number] | undefined,
  call: ToolCall,
  params: Record<string, unknown>,
  ctx: GrantContext,
): RelayRequest['suggestedRules'] {
  try {
    const derived = tool?.derivePermission
      ? tool.derivePermission(params as never, { workspace: ctx.workspaceRoot ?? '' })
      : derivePermission(call, ctx);
    return derived.filter((rule) => grantFitsCall(rule, call, ctx));
  } catch {
    return [];
  }
}
