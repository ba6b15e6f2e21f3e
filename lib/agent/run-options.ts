// What one run may change of its agent (`invoke({ permissions, model, tools })`): its permissions
// overlay the agent's policy for that run (the same overlay the server applies to POST /api/chat),
// its model is a model object or a spec, and its tools replace the agent's (each still gated).
// What only the administrator's policy may unlock (local addresses for fetch_url) stays the
// agent's own `trustedPolicy`: no per-run overlay reaches it.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { importPolicy, type Policy } from '../policy';
import { resolveModel } from './models';
import type { ToolDefinition } from './tools/types';

/** A run's tools: a tool object (used as given, still gated), or the name of one of the agent's tools. */
export type RunTool<T extends { name: string } = ToolDefinition<never>> = T | string;

/** A run named a tool the agent does not have, or named one tool twice. Nothing was started. */
export class ToolSelectionError extends Error {
  readonly code: 'invalid_input:unknown_tool' | 'invalid_input:duplicate_tool';

  constructor(
    readonly tool: string,
    kind: 'unknown' | 'duplicate',
    available: readonly string[],
  ) {
    super(
      kind === 'unknown'
        ? `Unknown tool "${tool}": the agent's tools are ${available.join(', ') || 'none'}`
        : `The tool "${tool}" is named twice`,
    );
    this.name = 'ToolSelectionError';
    this.code = kind === 'unknown' ? 'invalid_input:unknown_tool' : 'invalid_input:duplicate_tool';
  }
}

/**
 * The seeds' per-run permissions (any format `importPolicy` reads) on top of a policy: their rules
 * come after the policy's own, so an audit tells a rule's source by its index. Throws
 * PolicyValidationError (naming the field) for permissions that do not validate.
 */
export function withPermissions(policy: Policy, permissions: unknown): Policy {
  if (permissions === undefined || permissions === null) return policy;
  const overlay = importPolicy(permissions);
  return { ...policy, rules: [...policy.rules, ...overlay.rules] };
}

/**
 * The run's tools. Without a selection: the agent's tools, and `task` when it has subagents. With
 * one: each object as given, each name one of the agent's tools (`task` names the subagent tool).
 */
export function selectRunTools<T extends { name: string }>(
  requested: readonly RunTool<T>[] | undefined,
  own: readonly T[],
  hasSubagents: boolean,
): { tools: T[]; task: boolean } {
  if (requested === undefined) return { tools: [...own], task: hasSubagents };
  const available = [...own.map((t) => t.name), ...(hasSubagents ? ['task'] : [])];
  const tools: T[] = [];
  let task = false;
  const seen = new Set<string>();
  for (const entry of requested) {
    const name = typeof entry === 'string' ? entry : entry.name;
    if (seen.has(name)) throw new ToolSelectionError(name, 'duplicate', available);
    seen.add(name);
    if (typeof entry !== 'string') tools.push(entry);
    else if (entry === 'task' && hasSubagents) task = true;
    else {
      const tool = own.find((t) => t.name === entry);
      if (!tool) throw new ToolSelectionError(entry, 'unknown', available);
      tools.push(tool);
    }
  }
  return { tools, task };
}

/** A run's model: a model object as is, a spec (`offline`, `openai:<model>`, ...) resolved from the environment. */
export function runModel(model: LanguageModelV4 | string | undefined, fallback: LanguageModelV4): LanguageModelV4 {
  if (model === undefined) return fallback;
  return typeof model === 'string' ? resolveModel(model) : model;
}
