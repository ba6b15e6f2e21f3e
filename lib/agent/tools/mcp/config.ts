// The MCP server configuration in the ecosystem's shape (Claude Desktop / Claude Code's
// `mcpServers`), plus Gatehouse's own keys: `trusted` (annotations may lower the risk) and
// `paramKinds` (which params rules match as path / url / command). Pure and total: a malformed
// server is an error naming it and its field, and every other server still loads.
import { z } from 'zod';
import { ParamKindSchema } from '../../../policy';

/**
 * A server name becomes part of `mcp__<server>__<tool>`, and the first `__` after `mcp__` ends the
 * server (naming.ts). So a name never contains `__` nor starts or ends with `_`: `docs_`'s tool `x`
 * would be `mcp__docs___x`, which reads as server `docs`, tool `_x` (another server's tool).
 */
export const ServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,63}$/, 'letters, digits, - and _ only (1 to 63 characters)')
  .refine((name) => !name.startsWith('-'), 'must not start with "-"')
  .refine(
    (name) => !name.startsWith('_') && !name.endsWith('_') && !name.includes('__'),
    'must not start or end with "_" nor contain "__" (tools are named mcp__<server>__<tool>, and the first "__" must end the server name)',
  );

// Headers and env are checked here rather than left to the HTTP client or spawn: their errors quote
// the whole value (a secret), which would reach the server's lastError, the Servers page and the
// log. The messages name the field and never repeat the value.

/** An HTTP field name is a token (RFC 9110). */
const HeaderNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "not a header name (letters, digits and !#$%&'*+-.^_`|~ only)");

/**
 * What Node's http client and fetch both send: tab, visible ASCII, space and obs-text (U+0080 to
 * U+00FF). A line break, NUL, another control character or one above U+00FF is refused.
 */
const HeaderValueSchema = z
  .string()
  .regex(
    /^[\t\x20-\x7e\x80-\xff]*$/,
    'the value has a character a header cannot carry (a line break, NUL, another control character, or one above U+00FF); retype it',
  );

const EnvSchema = z.record(
  z.string().regex(/^[^=\0]+$/, 'not a variable name (non-empty, without "=" or NUL)'),
  z.string().refine((value) => !value.includes('\0'), 'the value contains a NUL character; retype it'),
);

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
  env: EnvSchema.optional(),
  cwd: z.string().optional(),
  ...common,
});

export const HttpServerSchema = z.strictObject({
  // Claude Code writes `http`; `streamable-http` is accepted as the same thing.
  type: z.enum(['http', 'streamable-http']),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: z.record(HeaderNameSchema, HeaderValueSchema).optional(),
  ...common,
});

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
      // A map's bad key: zod's own message ("Invalid key in record") says less than the key's schema.
      message: issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message,
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
