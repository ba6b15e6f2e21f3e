// An upstream MCP tool as a Gatehouse tool: its JSON input schema validates the call before the
// gate (an invalid call is a tool error the model reads), its risk and param kinds come from the
// catalog, and `execute` asks the catalog, which talks to the server. Nothing here decides.
import { z } from 'zod';
import type { ParamKind, Risk } from '../../../policy';
import type { ToolDefinition } from '../types';
import { toToolResult, type McpCallResult } from './result';

/** One upstream tool as the catalog lists it. Kept stable: the MCP server side consumes it too. */
export interface McpCatalogTool {
  /** `mcp__<server>__<tool>`. */
  name: string;
  server: string;
  /** The tool's name on its server. */
  upstreamName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  risk: Risk;
  paramKinds: Record<string, ParamKind>;
}

export type ValidationResult = { valid: true } | { valid: false; message: string };

/**
 * Which decided call a call to an upstream is: the run and the tool call id whose gate allowed it.
 * Gatehouse's own /api/mcp, as an upstream of itself, runs such a call without deciding it again,
 * once (lib/server/mcp-server/loopback.ts).
 */
export interface McpCallOrigin {
  run: string;
  call: string;
}

/** What an MCP tool needs of the catalog. */
export interface McpToolBackend {
  validate(name: string, args: unknown): ValidationResult;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; origin?: McpCallOrigin },
  ): Promise<McpCallResult>;
}

/** A zod schema that defers to the tool's JSON schema (MCP arguments are always an object). */
function validatingSchema(name: string, backend: McpToolBackend): z.ZodType<Record<string, unknown>> {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const result = backend.validate(name, value);
    if (!result.valid) ctx.addIssue({ code: 'custom', message: result.message });
  });
}

export function createMcpTool(info: McpCatalogTool, backend: McpToolBackend): ToolDefinition<Record<string, unknown>> {
  return {
    name: info.name,
    description: info.description,
    inputSchema: validatingSchema(info.name, backend),
    modelInputSchema: info.inputSchema,
    risk: info.risk,
    paramKinds: info.paramKinds,
    async execute(input, ctx) {
      const origin = ctx.runId === undefined ? {} : { origin: { run: ctx.runId, call: ctx.toolCallId } };
      return toToolResult(await backend.callTool(info.name, input, { signal: ctx.signal, ...origin }));
    },
  };
}
