// The MCP server configuration in the ecosystem's shape (Claude Desktop / Claude Code's
// `mcpServers`), plus Gatehouse's own keys: `trusted` (annotations may lower the risk) and
// `paramKinds` (which params rules match as path / url / command). Pure and total: a malformed
// server is an error naming it and its field, and every other server still loads.
import { z } from 'zod';
import { ParamKindSchema, type ParamKind } from '../../../policy';

/** A server name becomes part of `mcp__<server>__<tool>`, so it must not contain `__` itself. */
export const ServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, 'letters, digits, - and _ only (at most 63)')
  .refine((name) => !name.includes('__'), 'must not contain "__"');

const StringMap = z.record(z.string(), z.string());
const ParamKindsSchema = z.record(z.string(), z.record(z.string(), ParamKindSchema));

const common = {
  trusted: z.boolean().optional(),
  /** tool name -> param name -> kind; every other param is `text`. */
  paramKinds: ParamKindsSchema.optional(),
  /** Per-call timeout in milliseconds. */
  timeoutMs: z.number().int().min(100).max(3_600_000).optional(),
};

export const StdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
  cwd: z.string().optional(),
  ...common,
});

export const HttpServerSchema = z.strictObject({
  // Claude Code writes `http`; `streamable-http` is accepted as the same thing.
  type: z.enum(['http', 'streamable-http']),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: StringMap.optional(),
  ...common,
});

export const ServerConfigSchema = z.union([HttpServerSchema, StdioServerSchema]);

export type StdioServerConfig = z.infer<typeof StdioServerSchema>;
export type HttpServerConfig = z.infer<typeof HttpServerSchema>;
export type ServerConfig = StdioServerConfig | HttpServerConfig;

export interface NamedServerConfig {
  name: string;
  config: ServerConfig;
}

export interface ConfigError {
  /** The server's name, or `mcpServers` when the file itself is malformed. */
  server: string;
  /** The field at fault, dotted (`url`, `env.TOKEN`, `args.1`). */
  field: string;
  message: string;
}

export interface ParsedConfig {
  servers: NamedServerConfig[];
  errors: ConfigError[];
}

export const isHttp = (config: ServerConfig): config is HttpServerConfig =>
  'type' in config && (config.type === 'http' || config.type === 'streamable-http');

/** One server's entry: its config, or the errors naming its fields. */
export function parseServer(name: string, raw: unknown): { config?: ServerConfig; errors: ConfigError[] } {
  const named = ServerNameSchema.safeParse(name);
  if (!named.success) return { errors: [{ server: name, field: '(name)', message: named.error.issues[0]!.message }] };
  const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
  const wantsHttp = isObject && ('url' in raw || ('type' in raw && raw.type !== 'stdio'));
  const parsed = (wantsHttp ? HttpServerSchema : StdioServerSchema).safeParse(raw);
  if (parsed.success) return { config: parsed.data, errors: [] };
  return {
    errors: parsed.error.issues.map((issue) => ({
      server: name,
      field: issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(server)'),
      message: issue.message,
    })),
  };
}

/** The whole file (`{ "mcpServers": { ... } }`); never throws. */
export function parseMcpConfig(raw: unknown): ParsedConfig {
  const top = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).safeParse(raw);
  if (!top.success) {
    return {
      servers: [],
      errors: [{ server: 'mcpServers', field: 'mcpServers', message: 'expected an object of servers' }],
    };
  }
  const servers: NamedServerConfig[] = [];
  const errors: ConfigError[] = [];
  for (const [name, entry] of Object.entries(top.data.mcpServers)) {
    const result = parseServer(name, entry);
    if (result.config) servers.push({ name, config: result.config });
    errors.push(...result.errors);
  }
  return { servers, errors };
}

/** JSON text of the file, parsed; a syntax error is one error for the whole file. */
export function parseMcpConfigText(text: string): ParsedConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      servers: [],
      errors: [{ server: 'mcpServers', field: '(file)', message: `invalid JSON: ${(error as Error).message}` }],
    };
  }
  return parseMcpConfig(raw);
}

export const formatConfigError = (e: ConfigError) => `MCP server "${e.server}": ${e.field}: ${e.message}`;

export type { ParamKind };
