// GET /api/servers: the upstream MCP servers as the Servers page shows them. Secrets appear as
// their names with a mask; a changed definition carries old and new for review.
import { z } from 'zod';

const Definition = z.object({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.unknown(),
  annotations: z.unknown().optional(),
});

export const McpServerViewSchema = z.object({
  name: z.string(),
  source: z.enum(['file', 'database']),
  readOnly: z.boolean(),
  type: z.enum(['http', 'stdio']),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  trusted: z.boolean(),
  /** Carried as they are by the edit form, so an edit never drops them (a `path` param back to `text`). */
  paramKinds: z.record(z.string(), z.record(z.string(), z.string())),
  timeoutMs: z.number().optional(),
  state: z.enum(['idle', 'connecting', 'ready', 'unavailable', 'closed']),
  error: z.string().optional(),
  tools: z.array(
    z.object({
      name: z.string(),
      upstreamName: z.string(),
      description: z.string(),
      annotations: z.record(z.string(), z.unknown()),
      risk: z.string(),
      decision: z.string(),
      blocked: z.string().optional(),
    }),
  ),
  rejected: z.array(z.object({ tool: z.string(), reason: z.string() })),
  changes: z.array(
    z.object({
      tool: z.string(),
      upstreamName: z.string(),
      old: z.object({ digest: z.string(), definition: Definition }),
      new: z.object({ digest: z.string(), definition: Definition, seenAt: z.string() }),
    }),
  ),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;

export const McpServersResponseSchema = z.object({
  servers: z.array(McpServerViewSchema),
  errors: z.array(z.object({ server: z.string(), field: z.string(), message: z.string() })),
  /** GATEHOUSE_MCP_UI_STDIO=1: stdio servers (commands run on the host) may be added here. */
  allowStdio: z.boolean(),
});
export type McpServersResponse = z.infer<typeof McpServersResponseSchema>;
