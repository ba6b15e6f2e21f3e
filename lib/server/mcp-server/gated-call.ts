// One tools/call from an MCP client: arguments checked, then the gate (the outside-run service:
// allow, deny, or a relay a human decides, raced by elicitation), then the tool runs at most once
// (the tool_executions claim) and only while a live request is there to take its result.
import type { CallToolResult, JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type {
  AllowedAtOnce,
  ExternalCall,
  ExternalDecideOptions,
  ExternalDecision,
  ExternalSessionRef,
} from '../external/types';
import type { OutsideCallResult } from '../external/call-result';
import { elicitationId, elicitationPrompt, elicitationRequest } from './elicitation';
import { loopbackOrigin, type LoopbackOrigin } from './loopback';
import type { McpSessionState } from './session-id';
import { resultText, type McpExposedTool } from './tools';

/** The outside-run service as /api/mcp uses it (runtime.external). */
export interface McpGate {
  decide(session: ExternalSessionRef, call: ExternalCall, options: ExternalDecideOptions): Promise<ExternalDecision>;
  /**
   * A call the policy allows at once (no grant or rule to consume), decided, recorded and claimed
   * as `decide` does with `claim`; else undefined, its decision neither observed nor recorded
   * (express-lane.ts). Not a promise when decided from memory, without waiting.
   */
  decideAtOnce?(
    session: ExternalSessionRef,
    call: ExternalCall,
    options: Pick<ExternalDecideOptions, 'signal'>,
  ): AllowedAtOnce | undefined | Promise<AllowedAtOnce | undefined>;
  /** Records a result in the run (here: of a call that did not run). */
  recordResult(runId: string, callId: string, result: McpCallRecord): Promise<void>;
}

/** A call's result as its run records it (its tool_result event, the finished claim's result). */
export type McpCallRecord = OutsideCallResult;

export interface GatedCallDeps {
  gate: McpGate;
  /** The existing execution claim: true only for the first claimer of (run, call). */
  claim(runId: string, callId: string): Promise<boolean>;
  /**
   * Records the claimed call's result: the claim finished and the run's `tool_result` event, in one
   * statement (one write before the answer instead of three: the record is never half made).
   */
  finish(runId: string, callId: string, result: McpCallRecord): Promise<void>;
  sessionKey: Buffer;
  loopbackKey: Buffer;
  workspace: string;
  /** How often a waiting call sends a progress notification (when the client gave a token). */
  progressIntervalMs: number;
}

export interface GatedCallInput {
  tool: McpExposedTool;
  args: unknown;
  session: McpSessionState;
  requestId: RequestId;
  progressToken?: string | number;
  loopbackProof?: unknown;
  /** The request's Authorization header, which a loopback proof is bound to. */
  authorization: string | null;
  /** Aborted by an explicit `notifications/cancelled` for this request. */
  cancelled: AbortSignal;
  /** False once the client's response stream is gone: a result could not be delivered. */
  live(): boolean;
  /** Sends a message on this request's response stream (elicitation, progress, cancellation). */
  send(message: JSONRPCMessage): Promise<void>;
  /** Told when the call starts waiting for a human (its relay is stored). */
  waiting?(): void;
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

const callIdOf = (requestId: RequestId) => `mcp-${String(requestId)}`;

function sessionRef(session: McpSessionState): ExternalSessionRef {
  return { owner: session.owner, source: 'mcp', agent: session.client, externalId: session.sid, title: session.title };
}

/** The call as the gate sees it. */
function externalCall(tool: McpExposedTool, params: Record<string, unknown>, callId: string, workspace: string) {
  return {
    tool: tool.name,
    params,
    callId,
    workspace,
    ...(tool.risk ? { risk: tool.risk } : {}),
    ...(tool.paramKinds ? { paramKinds: tool.paramKinds } : {}),
  };
}

/**
 * The express lane's call (express-lane.ts): arguments `params` already checked by `tool.parse`,
 * no loopback proof, and only a call the policy allows at once (`onAllowed` is told, before it
 * runs); for anything else undefined, with nothing recorded or run, and the usual path
 * (`gatedCall`) takes the call from the start.
 */
export async function gatedCallAtOnce(
  deps: GatedCallDeps,
  input: GatedCallInput,
  params: Record<string, unknown>,
  onAllowed: () => void = () => {},
): Promise<CallToolResult | undefined> {
  const callId = callIdOf(input.requestId);
  const decided = deps.gate.decideAtOnce?.(
    sessionRef(input.session),
    externalCall(input.tool, params, callId, deps.workspace),
    { signal: input.cancelled },
  );
  // Decided from memory: the tool starts in this turn, not after one of waiting.
  const decision = decided instanceof Promise ? await decided : decided;
  if (!decision) return undefined;
  onAllowed();
  return runAllowed(deps, input, callId, decision);
}

export async function gatedCall(deps: GatedCallDeps, input: GatedCallInput): Promise<CallToolResult> {
  const { tool, session } = input;
  const parsed = tool.parse(input.args);
  if (!parsed.ok) return errorResult(`Invalid arguments for ${tool.name}: ${parsed.message}`);
  const callId = callIdOf(input.requestId);
  // Gatehouse's own agent, whose gate decided this call already: run it without asking again, once.
  const origin = loopbackOrigin(deps.loopbackKey, input.loopbackProof, tool.name, input.args, input.authorization);
  if (origin) return runLooped(deps, input, parsed.params, origin);

  const waitForHuman = session.elicitation || !session.declineWithoutElicitation;
  let elicited: string | undefined;
  const stopProgress = startProgress(deps, input);
  let decision: ExternalDecision;
  try {
    decision = await deps.gate.decide(sessionRef(session), externalCall(tool, parsed.params, callId, deps.workspace), {
      signal: input.cancelled,
      waitForHuman,
      claim: true,
      onRelay: (relayId) => {
        input.waiting?.();
        if (!session.elicitation) return;
        elicited = elicitationId(deps.sessionKey, session.sid, relayId);
        void input.send(elicitationRequest(elicited, elicitationPrompt(tool.name, parsed.params))).catch(() => {});
      },
    });
  } finally {
    stopProgress();
  }
  // Decided in Gatehouse first: the client's confirmation is moot, so it is withdrawn.
  if (elicited)
    void input
      .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: elicited, reason: 'decided' } })
      .catch(() => {});

  if (decision.decision === 'ask')
    return errorResult(
      `Tool execution denied: ${tool.name} needs a person's approval, and this client cannot confirm (no elicitation) while its token is set to decline at once. ${decision.reason}`,
    );
  if (decision.decision === 'deny') return errorResult(`Tool execution denied: ${decision.reason}`);
  return runAllowed(deps, input, callId, decision);
}

/**
 * A call Gatehouse's own agent decided (its loopback proof checked): run without a second decision,
 * once per call of the agent's. The claim is the agent's run's, under `loopback:<call id>`, so the
 * same proof sent again finds it taken and runs nothing.
 */
async function runLooped(
  deps: GatedCallDeps,
  input: GatedCallInput,
  params: Record<string, unknown>,
  origin: LoopbackOrigin,
): Promise<CallToolResult> {
  const { tool } = input;
  if (!(await deps.claim(origin.run, `loopback:${origin.call}`)))
    return errorResult(
      `${tool.name} was not run again: the agent's call ${origin.call} has already been executed here.`,
    );
  // Forwarded to an upstream, it stays the agent's one decided call.
  return tool.run(params, { toolCallId: callIdOf(input.requestId), signal: input.cancelled, approved: false, origin });
}

/** An allowed call: run once, while a live request is there to take its result, and recorded. */
async function runAllowed(
  deps: GatedCallDeps,
  input: GatedCallInput,
  callId: string,
  decision: Extract<ExternalDecision, { decision: 'allow' }>,
): Promise<CallToolResult> {
  const { tool, session } = input;
  const { runId } = decision;
  // Forwarded to an upstream (Gatehouse itself, say), the call is this run's decided call.
  const runCtx = { toolCallId: callId, signal: input.cancelled, origin: { run: runId, call: callId } };
  // Approved after the client left: nobody could read the result, so the call does not run.
  if (!input.live()) {
    const notRun = {
      tool: tool.name,
      agent: session.client,
      output: 'Not run: the MCP client was gone when the call was approved.',
      isError: true,
    };
    // Claimed with its decision (allowed at once): the claim is finished with that, after the
    // claim's own record, so nothing reads it as a call that may have run.
    await (decision.claimed ? deps.finish(runId, callId, notRun) : deps.gate.recordResult(runId, callId, notRun)).catch(
      () => {},
    );
    return errorResult('Not run: the client disconnected');
  }
  // Allowed at once: claimed with the decision (false: this call id ran already). A person's
  // approval: claimed now, while a live request is there to take the result.
  const claimed = decision.claimed ?? (await deps.claim(runId, callId));
  if (!claimed) return errorResult(`${tool.name} was not run again: this call (${callId}) has already been executed.`);
  const result = await tool
    .run(decision.params, { ...runCtx, approved: decision.decidedBy !== 'policy' && decision.decidedBy !== 'grant' })
    .catch((error: Error) => errorResult(`${tool.name} failed: ${error.message}`));
  const record: McpCallRecord = {
    tool: tool.name,
    agent: session.client,
    output: resultText(result),
    isError: result.isError === true,
  };
  await deps.finish(runId, callId, record);
  return result;
}

/** Progress notifications while the call waits, so the client's request timeout does not fire. */
function startProgress(deps: GatedCallDeps, input: GatedCallInput): () => void {
  if (input.progressToken === undefined) return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    void input
      .send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: input.progressToken!, progress, message: 'Waiting for approval in Gatehouse' },
      })
      .catch(() => {});
  }, deps.progressIntervalMs);
  return () => clearInterval(timer);
}
