// The endpoint's dependencies from the server's runtime: the outside-run gate, the execution claim,
// relay decisions with the usual checks, the built-in tools in the server's workspace (and, once
// configured, the upstream MCP tools). Built once per runtime.
import { realpath } from 'node:fs/promises';
import { canDecideRelay } from '../../auth';
import { toAppError } from '../http/errors';
import { compilePolicy, type CompiledPolicy } from '../../policy';
import { loadPolicy } from '../stores/policy-store';
import type { Runtime } from '../runtime';
import type { McpEndpointDeps } from './endpoint';
import { loopbackKey } from './loopback';
import { mcpSessionKey } from './session-id';
import { builtinMcpTools, type McpExposedTool } from './tools';
import { upstreamMcpTools } from './upstream-tools';
import { ExposedTools, withoutElicitationKey } from './token-settings';

const PROGRESS_INTERVAL_MS = 10_000;
/** Refusals of an elicitation answer that leave the relay as it should stay (see answerRelay). */
const ANSWER_TAKEN = new Set([
  'conflict:relay_resolved',
  'not_found:relay',
  'conflict:relay_quorum',
  'conflict:relay_same_approver',
  'forbidden:relay_quorum_role',
]);
const cache = new WeakMap<Runtime, McpEndpointDeps>();

export function mcpDeps(rt: Runtime): McpEndpointDeps {
  let deps = cache.get(rt);
  if (!deps) cache.set(rt, (deps = create(rt)));
  return deps;
}

function create(rt: Runtime): McpEndpointDeps {
  const { q } = rt;
  let compiled: { version: number; policy: CompiledPolicy } | undefined;
  const policy = async () => {
    const stored = await loadPolicy(q);
    if (compiled?.version !== stored.version)
      compiled = { version: stored.version, policy: compilePolicy(stored.policy) };
    return compiled.policy;
  };
  let builtins: Promise<McpExposedTool[]> | undefined;
  /** The tools by name, as `tools()` finds them (built-in first), once the built-in ones are ready. */
  let byName: { upstream: McpExposedTool[]; tools: Map<string, McpExposedTool> } | undefined;
  let builtinsReady: McpExposedTool[] | undefined;
  // The upstream tools as the catalog has them now: its servers are added, removed and change their
  // lists (pinning hides a changed tool until it is accepted), and each change moves its version.
  let upstream: { version: number; tools: McpExposedTool[] } | undefined;
  const upstreamTools = () => {
    if (upstream?.version !== rt.mcp.version) upstream = { version: rt.mcp.version, tools: upstreamMcpTools(rt.mcp) };
    return upstream.tools;
  };
  const tools = async () => [
    ...(await (builtins ??= realpath(rt.config.workspace)
      .catch(() => rt.config.workspace)
      .then((workspace) => (builtinsReady = builtinMcpTools({ workspace, policy }))))),
    ...upstreamTools(),
  ];
  const toolNow = (name: string) => {
    if (!builtinsReady) return undefined;
    const upstreamNow = upstreamTools();
    if (byName?.upstream !== upstreamNow) {
      const map = new Map<string, McpExposedTool>();
      for (const tool of [...builtinsReady, ...upstreamNow]) if (!map.has(tool.name)) map.set(tool.name, tool);
      byName = { upstream: upstreamNow, tools: map };
    }
    return byName.tools.get(name);
  };
  const exposed = new ExposedTools(q, rt.database.kind === 'pglite');
  return {
    gate: rt.external,
    sessionKey: mcpSessionKey(rt.sessionSecret),
    loopbackKey: loopbackKey(rt.sessionSecret),
    workspace: rt.config.workspace,
    progressIntervalMs: PROGRESS_INTERVAL_MS,
    version: process.env.npm_package_version ?? '0.1.0',
    tools,
    toolNow,
    exposedNow: (tokenId) => exposed.peek(tokenId),
    // Through the gate: where it decides allowed calls' claims in memory, it must know this one too.
    claim: (runId, toolCallId) => rt.external.claim(runId, toolCallId),
    // The claim finished and the tool_result event in one statement (as the gate's recordResult
    // records it, plus the claim); on PGlite after the answer, journaled before it.
    finish: (runId, toolCallId, result) => rt.external.finishCall(runId, toolCallId, result),
    exposedTools: (tokenId) => exposed.get(tokenId),
    declineWithoutElicitation: async (tokenId) =>
      (await q.settings.getSetting({ key: withoutElicitationKey(tokenId) })) === 'decline',
    async answerRelay(user, relayId, answer) {
      const relay = await rt.runs.relayAccess(relayId);
      if (!relay || !canDecideRelay(user, relay)) return;
      await rt.runs
        .decideChecked(
          relayId,
          { approved: answer.approved, ...(answer.reason ? { reason: answer.reason } : {}) },
          user.username,
        )
        .catch((error: unknown) => {
          // Decided first in Gatehouse (or expired): the first answer stands. Not this person's to
          // decide alone (several approvers needed, or other roles): the relay stays pending for
          // them, and the client's answer is taken (202). Any other failure is the request's error.
          if (!ANSWER_TAKEN.has(toAppError(error).code)) throw error;
        });
    },
  };
}
