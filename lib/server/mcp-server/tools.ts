// What /api/mcp offers: each tool with its MCP listing, how its arguments are checked, and how it
// runs once the gate allowed it. Built-in tools come from lib/agent/tools and act in the server's
// workspace; upstream MCP tools are added the same way, under their `mcp__<server>__<tool>` names.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { builtinTools, ToolError, type ToolDefinition } from '../../agent';
import { evaluate, type CompiledPolicy, type ParamKind, type Risk } from '../../policy';
import type { LoopbackOrigin } from './loopback';

export interface ToolRunContext {
  toolCallId: string;
  signal: AbortSignal;
  /** A person approved this very call (false: the policy allowed it). */
  approved: boolean;
  /** The decided call this is (its run and call id): an upstream tool's loopback proof names it. */
  origin?: LoopbackOrigin;
}

export interface McpExposedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations?: ToolAnnotations;
  /** Given to the gate for tools that are not built in (built-in tools carry their own). */
  risk?: Risk;
  paramKinds?: Record<string, ParamKind>;
  /** The arguments as the tool takes them, or what is wrong with them (nothing runs then). */
  parse(args: unknown): { ok: true; params: Record<string, unknown> } | { ok: false; message: string };
  run(params: Record<string, unknown>, ctx: ToolRunContext): Promise<CallToolResult>;
}

export interface BuiltinToolEnvironment {
  workspace: string;
  /** The stored policy, for the follow-up calls a tool checks on its own (fetch_url's redirects). */
  policy(): Promise<CompiledPolicy>;
}

const annotationsFor = (risk: Risk): ToolAnnotations =>
  risk === 'read_only' ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: risk === 'destructive' };

/** A built-in tool as an MCP tool: its zod schema listed as JSON Schema and checked before the gate. */
function builtinMcpTool(tool: ToolDefinition<unknown>, env: BuiltinToolEnvironment): McpExposedTool {
  const schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...schema, type: 'object' },
    annotations: annotationsFor(tool.risk),
    parse(args) {
      const parsed = tool.inputSchema.safeParse(args ?? {});
      if (parsed.success) return { ok: true, params: parsed.data as Record<string, unknown> };
      const first = parsed.error.issues[0];
      return { ok: false, message: `${first?.path.join('.') || '(arguments)'}: ${first?.message ?? 'invalid'}` };
    },
    async run(params, ctx) {
      const policy = await env.policy();
      try {
        const result = await tool.execute(params, {
          workspace: env.workspace,
          toolCallId: ctx.toolCallId,
          signal: ctx.signal,
          approved: ctx.approved,
          trustedPolicy: policy,
          evaluate: (inner) =>
            evaluate(policy, inner, {
              workspaceRoot: env.workspace,
              risk: builtinTools.find((t) => t.name === inner.tool)?.risk,
            }),
        });
        return { content: [{ type: 'text', text: result.output }], isError: result.isError === true };
      } catch (error) {
        const message =
          error instanceof ToolError
            ? error.message
            : `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`;
        return { content: [{ type: 'text', text: message }], isError: true };
      }
    },
  };
}

export const builtinMcpTools = (env: BuiltinToolEnvironment): McpExposedTool[] =>
  builtinTools.map((tool) => builtinMcpTool(tool, env));

/** The text of a result, as the run's transcript records it. */
export function resultText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
