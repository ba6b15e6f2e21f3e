// The upstream MCP tools as one catalog: what the agent's tools and Gatehouse's own MCP server
// (/api/mcp) both use. Its shape is a contract: `listTools()` and `callTool(name, args, { signal })`
// returning the MCP result. It never decides: callers gate each call before `callTool`.
import type { ConfigError, NamedServerConfig, ServerConfig } from '../../agent/tools/mcp/config';
import { parseMcpToolName } from '../../agent/tools/mcp/naming';
import type { McpCallResult } from '../../agent/tools/mcp/result';
import {
  createMcpTool,
  type McpCallOrigin,
  type McpCatalogTool,
  type ValidationResult,
} from '../../agent/tools/mcp/tool';
import type { ToolDefinition } from '../../agent/tools/types';
import { MemoryPinStore, type PinStore } from './pins';
import { errorResult, Upstream, type UpstreamOptions } from './upstream';

export type { McpCatalogTool, McpCallResult, ValidationResult };

export type ServerSource = 'file' | 'database';

export interface McpCatalogOptions {
  servers: NamedServerConfig[];
  /** Config errors found while loading, shown on the Servers page and logged at start. */
  errors?: ConfigError[];
  pins?: PinStore;
  log?: (line: string) => void;
  upstream?: Partial<Pick<UpstreamOptions, 'connectTimeoutMs' | 'callTimeoutMs' | 'backoff' | 'callMeta'>>;
}

export interface McpToolView extends McpCatalogTool {
  /** Why calls are refused (a changed definition awaiting review). */
  blocked?: string;
}

function standIn(
  name: string,
  server: string,
  tool: string,
  catalog: McpCatalog,
): ToolDefinition<Record<string, unknown>> {
  const info: McpCatalogTool = {
    name,
    server,
    upstreamName: tool,
    description: `${tool} on MCP server ${server} (unavailable now)`,
    inputSchema: { type: 'object' },
    risk: 'destructive',
    paramKinds: {},
  };
  // Validation passes so the call reaches callTool, which reports the server's state.
  return createMcpTool(info, { validate: () => ({ valid: true }), callTool: (n, a, o) => catalog.callTool(n, a, o) });
}

/** The field of a stored server's load failure in `errors` (the Servers page offers to remove it). */
export const STORED_FIELD = '(stored)';

export class McpCatalog {
  readonly errors: ConfigError[];
  readonly pins: PinStore;
  private readonly upstreams = new Map<string, Upstream>();
  private readonly listeners = new Set<() => void>();
  private readonly sources = new Map<string, ServerSource>();
  private readonly upstreamOptions: McpCatalogOptions;
  /** Changes whenever a server's tool list does (agents are cached per version). */
  version = 0;

  constructor(options: McpCatalogOptions) {
    this.errors = options.errors ?? [];
    this.pins = options.pins ?? new MemoryPinStore();
    this.upstreamOptions = options;
    for (const { name, config } of options.servers) this.add(name, config, 'file');
  }

  private add(name: string, config: ServerConfig, source: ServerSource): Upstream {
    const upstream = new Upstream({
      name,
      config,
      pins: this.pins,
      ...this.upstreamOptions.upstream,
      ...(this.upstreamOptions.log ? { log: this.upstreamOptions.log } : {}),
      onToolsChanged: () => this.changed(),
    });
    this.upstreams.set(name, upstream);
    this.sources.set(name, source);
    return upstream;
  }

  private changed() {
    this.version++;
    this.listeners.forEach((l) => l());
  }

  /** Where a server's config comes from: the file's servers are read-only and win. */
  sourceOf(name: string): ServerSource | undefined {
    return this.sources.get(name);
  }

  /** Adds or replaces a server added on the Servers page (a file server of that name wins: false). */
  /**
   * A stored server that could not be loaded (it no longer parses or decrypts, or is a stdio server
   * while GATEHOUSE_MCP_UI_STDIO is off): shown on the Servers page, where it can be removed.
   */
  noteStoredError(name: string, message: string): void {
    this.clearStoredError(name);
    this.errors.push({ server: name, field: STORED_FIELD, message });
  }

  private clearStoredError(name: string): void {
    const at = this.errors.findIndex((e) => e.server === name && e.field === STORED_FIELD);
    if (at !== -1) this.errors.splice(at, 1);
  }

  async putServer(name: string, config: ServerConfig): Promise<boolean> {
    if (this.sources.get(name) === 'file') return false;
    this.clearStoredError(name);
    await this.upstreams.get(name)?.close();
    void this.add(name, config, 'database')
      .ensure()
      .catch(() => undefined);
    this.changed();
    return true;
  }

  async removeServer(name: string): Promise<boolean> {
    if (this.sources.get(name) === 'file') return false;
    this.clearStoredError(name);
    if (this.sources.get(name) !== 'database') return false;
    await this.upstreams.get(name)?.close();
    this.upstreams.delete(name);
    this.sources.delete(name);
    this.changed();
    return true;
  }

  /** Connects every server now; failures are logged and retried, never thrown. */
  async start(): Promise<void> {
    await Promise.all([...this.upstreams.values()].map((u) => u.ensure().catch(() => undefined)));
  }

  servers(): Upstream[] {
    return [...this.upstreams.values()];
  }

  server(name: string): Upstream | undefined {
    return this.upstreams.get(name);
  }

  /** Told after any server's tool list changed. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The tools of the servers connected now (an unavailable server lists none). */
  listTools(): McpToolView[] {
    return this.servers().flatMap((u) =>
      [...u.tools.values()].map((t) => ({ ...t.info, ...(t.blocked ? { blocked: t.blocked } : {}) })),
    );
  }

  private find(name: string) {
    const parsed = parseMcpToolName(name);
    const upstream = parsed && this.upstreams.get(parsed.server);
    return parsed && upstream ? { upstream, tool: parsed.tool } : undefined;
  }

  /** The arguments checked against the tool's input JSON schema (before the gate). */
  validate(name: string, args: unknown): ValidationResult {
    const found = this.find(name);
    const entry = found?.upstream.tools.get(found.tool);
    if (!entry) return { valid: false, message: `unknown MCP tool ${name}` };
    const result = entry.validate(args);
    return result.valid ? { valid: true } : { valid: false, message: result.errorMessage };
  }

  /** Calls the tool on its server: exactly one `tools/call`, or an error result when it cannot. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; origin?: McpCallOrigin },
  ): Promise<McpCallResult> {
    const found = this.find(name);
    if (!found) return errorResult(`Unknown MCP tool ${name}`);
    // Connect first (on first use), so an unavailable server says so rather than "unknown tool".
    try {
      if (!found.upstream.ready) await found.upstream.ensure();
    } catch (error) {
      return errorResult((error as Error).message);
    }
    const valid = this.validate(name, args);
    if (!valid.valid) return errorResult(`Invalid input for ${name}: ${valid.message}`);
    return found.upstream.callTool(found.tool, args, options.signal, options.origin);
  }

  /**
   * The tools as agent tools (the gate validates, decides, then `execute` calls the server). A
   * name given of a configured server that does not list it now (unavailable, still connecting)
   * gets a stand-in: destructive, and its call fails as the server does.
   */
  agentTools(names?: readonly string[]): ToolDefinition<Record<string, unknown>>[] {
    const listed = this.listTools();
    if (!names) return listed.map((info) => createMcpTool(info, this));
    return names.flatMap((name) => {
      const info = listed.find((t) => t.name === name);
      if (info) return [createMcpTool(info, this)];
      const found = this.find(name);
      return found ? [standIn(name, found.upstream.name, found.tool, this)] : [];
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.servers().map((u) => u.close()));
  }
}
