// The upstream MCP servers' tools (the catalog, lib/server/mcp's McpCatalog), offered by /api/mcp
// under their `mcp__<server>__<tool>` names: arguments checked against the tool's JSON schema before
// the gate, risk and param kinds as the catalog derived them, and the call made only after an allow.
// A tool whose changed definition awaits review is not offered (the catalog refuses it anyway).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ParamKind, Risk } from '../../policy';
import type { LoopbackOrigin } from './loopback';
import type { McpExposedTool } from './tools';

/** What /api/mcp needs of the catalog. */
export interface UpstreamCatalog {
  listTools(): Array<{
    name: string;
    description: string;
    inputSchema: Record<string, unknown>;
    annotations?: Record<string, unknown>;
    risk: Risk;
    paramKinds: Record<string, ParamKind>;
    blocked?: string;
  }>;
  validate(name: string, args: unknown): { valid: true } | { valid: false; message: string };
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; origin?: LoopbackOrigin },
  ): Promise<{
    content: Array<{ type: string; [key: string]: unknown }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  }>;
}

export function upstreamMcpTools(catalog: UpstreamCatalog): McpExposedTool[] {
  return catalog
    .listTools()
    .filter((tool) => !tool.blocked)
    .map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { ...tool.inputSchema, type: 'object' },
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      risk: tool.risk,
      paramKinds: tool.paramKinds,
      parse(args) {
        const params = (args ?? {}) as Record<string, unknown>;
        if (typeof params !== 'object' || Array.isArray(params))
          return { ok: false, message: 'arguments must be an object' };
        const valid = catalog.validate(tool.name, params);
        return valid.valid ? { ok: true, params } : { ok: false, message: valid.message };
      },
      async run(params, ctx) {
        const options = { signal: ctx.signal, ...(ctx.origin ? { origin: ctx.origin } : {}) };
        return (await catalog.callTool(tool.name, params, options)) as CallToolResult;
      },
    }));
}
