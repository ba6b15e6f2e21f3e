// The contract every tool implements. One tool per file under lib/agent/tools; the agent loop
// validates input with `inputSchema`, asks lib/policy (using `risk` and `paramKinds`), and only
// then calls `execute`. Tools never decide permissions themselves, but they do enforce their own
// hard limits (workspace confinement, time and size caps), whatever the policy says.
import type { z } from 'zod';
import type { CompiledPolicy, Decision, ParamKind, Risk, Rule, ToolCall } from '../../policy';

export interface ToolEnvironment {
  /** Absolute, real (symlink-resolved) path of the workspace the tools act in. */
  workspace: string;
}

export interface ToolContext extends ToolEnvironment {
  toolCallId: string;
  /** The run making the call, where there is one (an MCP tool names its decided call upstream). */
  runId?: string;
  /** Aborted when the run is cancelled; long-running tools stop promptly. */
  signal: AbortSignal;
  /**
   * Asks the policy about a follow-up call the tool wants to make on its own (fetch_url re-checks
   * each redirect hop). The tool proceeds only on `allow`.
   */
  evaluate(call: ToolCall): Decision;
  /**
   * A person (or the approval handler) approved this very call; false when the policy allowed it
   * outright. A tool re-checks at execution what its `inspect` found, and only an approved call
   * may go on when the check now fails (the file changed since it was inspected).
   */
  approved?: boolean;
  /**
   * The administrator's policy alone: in the server the stored policy, without a run's own
   * `permissions`, the session's grants or the mode. What only an administrator may unlock is
   * looked up here (fetch_url: local network addresses named literally). Undefined: nothing is.
   */
  trustedPolicy?: CompiledPolicy;
  /** The subagent making the call (undefined for the main agent), for rules with an `agent` glob. */
  agent?: string;
}

export interface DiffPreview {
  kind: 'diff';
  path: string;
  /** Unified diff of exactly what the call would change. */
  diff: string;
  /** The file does not exist yet. */
  created: boolean;
}

export type ToolPreview = DiffPreview;

export interface ToolResult {
  /** Text given back to the model. */
  output: string;
  /** The tool ran but failed (non-zero exit, refused path, HTTP error); the output says why. */
  isError?: boolean;
  /** Output was cut to the cap; the output text marks where. */
  truncated?: boolean;
  /** Structured extras for the UI and the audit log (exit code, status, bytes). */
  metadata?: Record<string, unknown>;
}

export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  /**
   * The JSON schema the model is shown, for a tool defined by one (an MCP tool) rather than by its
   * zod schema; `inputSchema` then defers to it when validating.
   */
  modelInputSchema?: Record<string, unknown>;
  risk: Risk;
  /** Param kinds for the policy engine (command / path / url); others are text. */
  paramKinds?: Record<string, ParamKind>;
  /** The rules "Always Allow" adds; defaults to lib/policy's derivePermission. */
  derivePermission?(input: Input, env: ToolEnvironment): Rule[];
  /**
   * A reason this call must ask a person, whatever rules, grants and modes say: a fact about the
   * call that only the tool can see (read_file: a file with several hard links). The gate then
   * treats the call as it treats a command it cannot inspect: never allowed automatically, still
   * denied by a deny rule (and by dontAsk). Undefined: nothing to add; one that throws asks.
   */
  inspect?(input: Input, env: ToolEnvironment): Promise<string | undefined>;
  /** What the approval modal shows before the human decides (a diff for file writes). */
  preview?(input: Input, env: ToolEnvironment): Promise<ToolPreview | undefined>;
  execute(input: Input, ctx: ToolContext): Promise<ToolResult>;
}

/** Thrown by tools for a refusal the model should see as a tool error (not a crash). */
export class ToolError extends Error {
  constructor(
    readonly code: 'outside_workspace' | 'not_found' | 'invalid_input' | 'refused' | 'too_large' | 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
