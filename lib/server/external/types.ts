// Outside agents (Claude Code through its hooks, MCP clients of /api/mcp, any framework calling
// POST /api/hooks/decide) run their tools themselves, or through Gatehouse's MCP server, and only
// ask the gate. Each of their sessions is a run (`runs.source` `hook` or `mcp`), keyed by its owner,
// its agent and the session id the outside agent chose, so a second user presenting the same id
// gets another run and never its grants. This is the one contract every adapter uses.
import type { ParamKind, Risk } from '../../policy';
import type { RunSource } from '../../contract';
import type { EditableField } from './editable';

/** Which outside session a call belongs to. `owner` is the authenticated user's id, never the client's word. */
export interface ExternalSessionRef {
  owner: string;
  source: Exclude<RunSource, 'agent'>;
  /** The agent's name as rules see it (`claude-code`, an MCP client's name). */
  agent: string;
  /** The session id the outside agent chose (Claude Code's `session_id`, an MCP session id). */
  externalId: string;
  /** The run's title: Claude Code's `cwd`, an MCP client's name. */
  title: string;
}

/** One call as the policy sees it, already mapped onto Gatehouse's tool names and parameters. */
export interface ExternalCall {
  tool: string;
  params: Record<string, unknown>;
  /** The outside agent's own id of the call (`tool_use_id`): a retried call gets the same decision. */
  callId?: string;
  /** The tool's risk when it is not a built-in tool (built-in tools carry their own). */
  risk?: Risk;
  paramKinds?: Record<string, ParamKind>;
  /** The path param naming a directory read with everything below it (a hook's Grep): EvaluationContext.searchRoot. */
  searchRoot?: string;
  /** The workspace root that relative paths and file rules resolve against (Claude Code's `cwd`). */
  workspace?: string;
  /** The agent user's home directory, which `~/` in path rules means (else the server's). */
  homeDir?: string;
  /**
   * A CLI that takes back only one param of an approver's edit (a hook): that param, which the edit
   * alone may change (and must keep starting with `prefix`); null: the CLI can run no edit. Absent:
   * the caller runs any edit. An edit it cannot run is refused before it is stored (409).
   */
  editable?: EditableField;
  /** What the human sees besides the mapped call: the agent's own tool name and input. */
  original?: { tool: string; input: unknown };
}

export interface ExternalDecideOptions {
  /** The request's own signal: when the request ends first, the relay is cancelled (and audited so). */
  signal: AbortSignal;
  /** `false`: an ask is answered `ask` at once (handed back to the agent's own prompt). Default true. */
  waitForHuman?: boolean;
  /** The relay's deadline in seconds (shorter than the caller's own timeout). Default: the server's. */
  timeoutS?: number;
  /** Told the relay id as soon as the relay is stored (MCP elicitation, progress notifications). */
  onRelay?: (relayId: string) => void;
  /**
   * The caller runs the tool itself (Gatehouse's MCP server): a call allowed at once is claimed
   * (`tool_executions`) in the statement that records its decision; see `claimed`.
   */
  claim?: boolean;
}

export type ExternalDecision = { runId: string; relayId?: string; reason: string } & (
  | {
      decision: 'allow';
      /** The parameters to run with: the call's own, or a human's edit of them. */
      params: Record<string, unknown>;
      /** The approver changed the call: run `params`, not the call as asked. */
      edited?: true;
      /** `policy`, `grant`, or the id of the user who approved. */
      decidedBy: string;
      /**
       * With `claim`, for a call allowed at once: whether this decision won the call's claim (false:
       * the call id was executed already, so it must not run). Undefined: not claimed (a human's
       * approval; the caller claims before running).
       */
      claimed?: boolean;
    }
  | { decision: 'deny' }
  | { decision: 'ask' }
);

/** A call the policy allowed at once, with its claim (ExternalGate.decideAtOnce). */
export type AllowedAtOnce = Extract<ExternalDecision, { decision: 'allow' }> & { claimed: boolean };
