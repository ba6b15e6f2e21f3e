// One upstream MCP server: connects (at start or on first use), lists its tools through pinning,
// refreshes on `notifications/tools/list_changed`, reconnects with backoff after a failure or a
// disconnect, and calls tools with a per-call timeout. A call while the server is unavailable
// fails at once with a clear error; a call is never retried (it may have run). Fail closed: a
// listing that cannot be read whole, or pinned, leaves the server unavailable, never its tools
// callable under a list that was not checked. One client at a time: a new connect closes the last.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ServerConfig } from '../../agent/tools/mcp/config';
import { mcpToolName } from '../../agent/tools/mcp/naming';
import { comparePin, pinnedPart, type PinnedDefinition } from '../../agent/tools/mcp/pin';
import type { McpCallResult } from '../../agent/tools/mcp/result';
import { riskFromAnnotations } from '../../agent/tools/mcp/risk';
import type { McpCallOrigin, McpCatalogTool } from '../../agent/tools/mcp/tool';
import type { PinStore } from './pins';
import { callToolOverHttp, type HttpCallSession } from './http-call';
import { listAllTools, withoutDuplicates } from './list-tools';
import { createTransport } from './transport';

export type UpstreamState = 'idle' | 'connecting' | 'ready' | 'unavailable' | 'closed';

export interface UpstreamTool {
  info: McpCatalogTool;
  validate: JsonSchemaValidator<unknown>;
  /** The listed tool's output schema, compiled: its structured content must match (as the SDK's client checks). */
  validateOutput?: JsonSchemaValidator<unknown>;
  /** Why calls are refused (a changed definition awaiting review); the info is then the pinned one. */
  blocked?: string;
}

export interface UpstreamOptions {
  name: string;
  config: ServerConfig;
  pins: PinStore;
  log?: (line: string) => void;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  backoff?: { initialMs: number; maxMs: number };
  /**
   * The `_meta` sent with a call (Gatehouse's loopback proof, lib/server/mcp-server/loopback.ts,
   * so Gatehouse as its own upstream does not ask a second time). Undefined: none.
   */
  callMeta?: (
    tool: string,
    args: Record<string, unknown>,
    config: ServerConfig,
    origin?: McpCallOrigin,
  ) => Record<string, unknown> | undefined;
  /** After each successful listing (start, reconnect, list_changed). */
  onToolsChanged?: () => void;
}

const validator = new AjvJsonSchemaValidator();
/**
 * The validator for a tool's input schema. `$schema` is dropped: servers announce drafts 07 and
 * 2020-12 alike, and the validator knows one meta-schema; the keywords tools use mean the same.
 */
function compileSchema(schema: unknown): JsonSchemaValidator<unknown> {
  const { $schema: _ignored, ...rest } = (schema ?? {}) as Record<string, unknown>;
  return validator.getValidator(rest as never);
}

export const errorResult = (text: string): McpCallResult => ({ content: [{ type: 'text', text }], isError: true });

export class Upstream {
  state: UpstreamState = 'idle';
  lastError?: string;
  tools = new Map<string, UpstreamTool>();
  /** Tools left out, and why (a schema the validator rejects, a name listed twice). */
  rejected: { tool: string; reason: string }[] = [];
  /** The connected client (state ready), whose listing the tools are. */
  private client?: Client;
  /** The last client made, connected or still connecting: the one closed by the next connect. */
  private current?: Client;
  /** An HTTP server's session, for calls made without the SDK's request machinery (http-call.ts). */
  private http?: HttpCallSession;
  /** The connect in progress, which `ensure` waits for rather than starting another. */
  private attempt?: Promise<void>;
  private retry?: ReturnType<typeof setTimeout>;
  private attempts = 0;
  private readonly log: (line: string) => void;

  constructor(private readonly options: UpstreamOptions) {
    this.log = options.log ?? ((line) => console.error(line));
  }

  get name() {
    return this.options.name;
  }

  get config() {
    return this.options.config;
  }

  /** Connected: `ensure` has nothing to do. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Connected, or connecting now when idle; throws at once while unavailable (a retry is scheduled). */
  async ensure(): Promise<void> {
    if (this.state === 'ready') return;
    if (this.state === 'closed') throw new Error(`MCP server "${this.name}" is stopped`);
    if (this.state === 'unavailable') throw new Error(`MCP server "${this.name}" is unavailable: ${this.lastError}`);
    await (this.attempt ?? this.connect());
  }

  /**
   * Connects now, whatever the state (the Servers page's "test", a scheduled retry). The client
   * before, connected or still connecting, is closed first: repeated tests never leave a stdio
   * server's process, or an HTTP session, behind.
   */
  connect(): Promise<void> {
    if (this.state === 'closed') return Promise.resolve();
    const attempt: Promise<void> = this.connectOnce().finally(() => {
      if (this.attempt === attempt) this.attempt = undefined;
    });
    this.attempt = attempt;
    return attempt;
  }

  private async connectOnce(): Promise<void> {
    clearTimeout(this.retry);
    const previous = this.current;
    const client = new Client({ name: 'gatehouse', version: '0.1.0' }, { capabilities: {} });
    this.current = client;
    this.client = undefined;
    this.http = undefined;
    this.state = 'connecting';
    // Its onclose finds it is not the client any more: closing it fails nothing.
    await previous?.close().catch(() => undefined);
    if (this.current !== client) return this.superseded();
    // Why Gatehouse closed this client itself (an answer past the cap, a failed relisting): the
    // reason the server is unavailable, rather than "the connection closed".
    let closedFor: Error | undefined;
    const closeFor = (error: Error) => {
      closedFor ??= error;
      void client.close().catch(() => undefined);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      // The server lists something else now. If that cannot be listed and pinned, its tools must
      // not stay callable under the old list: the server becomes unavailable, and the retry
      // (with backoff) connects and lists again.
      void this.refresh(client).catch((error: Error) => {
        if (this.current !== client) return;
        this.log(`[mcp:${this.name}] tools refresh failed: ${error.message}`);
        closeFor(new Error(`its tools could not be listed again after it announced a change: ${error.message}`));
      });
    });
    // Ends the HTTP calls in flight on this client's session, as its closing ends its own requests.
    const ended = new AbortController();
    let closed = false;
    client.onclose = () => {
      closed = true;
      ended.abort(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
      // While connecting, the connect's own failure reports it (once).
      if (this.client !== client || this.state !== 'ready') return;
      this.client = undefined;
      this.http = undefined;
      this.fail(closedFor ?? new Error('the connection closed'));
    };
    try {
      const transport = createTransport(this.name, this.options.config, this.log, closeFor);
      await client.connect(transport, { timeout: this.options.connectTimeoutMs ?? 10_000 });
      if (this.current !== client) throw new Error('superseded');
      this.client = client;
      this.http =
        transport instanceof StreamableHTTPClientTransport
          ? httpSession(client, transport, this.options.config, ended.signal)
          : undefined;
      await this.refresh(client);
      // Closed while listing (a relisting failed, an answer was too large): not ready.
      if (closed) throw closedFor ?? new Error('the connection closed');
      this.state = 'ready';
      this.lastError = undefined;
      this.attempts = 0;
    } catch (error) {
      void client.close().catch(() => undefined);
      if (this.current !== client) return this.superseded();
      this.client = undefined;
      this.http = undefined;
      this.fail(closedFor ?? (error as Error));
      throw new Error(`MCP server "${this.name}" is unavailable: ${this.lastError}`, { cause: error });
    }
  }

  /** A connect replaced by a newer one (whose outcome is this one's too) or ended by close(). */
  private superseded(): Promise<void> {
    return this.state === 'closed' ? Promise.resolve() : this.ensure();
  }

  private fail(error: Error) {
    this.state = 'unavailable';
    this.lastError = error.message;
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
    const delay = Math.min(maxMs, initialMs * 2 ** this.attempts++);
    this.log(`[mcp:${this.name}] unavailable (${error.message}); retrying in ${delay} ms`);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect().catch(() => undefined), delay);
    this.retry.unref?.();
  }

  /** Lists every page of tools (bounded) and puts each through pinning. */
  private async refresh(client: Client): Promise<void> {
    const listed = await listAllTools(client, this.options.connectTimeoutMs ?? 10_000);
    const { unique, duplicated } = withoutDuplicates(listed);
    const pins = new Map((await this.options.pins.list(this.name)).map((p) => [p.tool, p]));
    const tools = new Map<string, UpstreamTool>();
    const rejected: { tool: string; reason: string }[] = [...duplicated];
    for (const tool of unique) {
      const definition = pinnedPart(tool as PinnedDefinition);
      const pinned = pins.get(tool.name);
      const status = comparePin(pinned?.digest, definition);
      if (status.status === 'new')
        await this.options.pins.pin({ server: this.name, tool: tool.name, digest: status.digest, definition });
      if (status.status === 'changed' && pinned?.pending?.digest !== status.digest)
        await this.options.pins.markPending({ server: this.name, tool: tool.name, digest: status.digest, definition });
      // A changed tool is shown as pinned, so its new text never reaches the model before review.
      const shown = status.status === 'changed' ? pinned!.definition : definition;
      try {
        tools.set(tool.name, {
          info: this.describe(shown),
          validate: compileSchema(shown.inputSchema),
          ...(tool.outputSchema ? { validateOutput: compileSchema(tool.outputSchema) } : {}),
          ...(status.status === 'changed'
            ? {
                blocked: `the definition of ${mcpToolName(this.name, tool.name)} changed on its server and awaits an administrator's review (Servers page)`,
              }
            : {}),
        });
      } catch (error) {
        rejected.push({ tool: tool.name, reason: `input schema rejected: ${(error as Error).message}` });
      }
    }
    // A listing of a client replaced meanwhile (a newer connect, close) is not this server's now.
    if (this.current !== client) throw new Error('superseded');
    this.tools = tools;
    this.rejected = rejected;
    this.options.onToolsChanged?.();
  }

  private describe(definition: PinnedDefinition): McpCatalogTool {
    const config = this.options.config;
    const annotations = (definition.annotations ?? {}) as Record<string, unknown>;
    return {
      name: mcpToolName(this.name, definition.name),
      server: this.name,
      upstreamName: definition.name,
      description: definition.description ?? '',
      inputSchema: (definition.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
      annotations,
      risk: riskFromAnnotations(annotations, config.trusted === true),
      paramKinds: config.paramKinds?.[definition.name] ?? {},
    };
  }

  /** Re-reads the pins after an administrator accepted a change. */
  async reload(): Promise<void> {
    if (this.client && this.state === 'ready') await this.refresh(this.client);
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    origin?: McpCallOrigin,
  ): Promise<McpCallResult> {
    try {
      // Connected (the usual case): the call is sent in this turn, not after one of waiting.
      if (!this.ready) await this.ensure();
    } catch (error) {
      return errorResult((error as Error).message);
    }
    const entry = this.tools.get(tool);
    if (!entry) return errorResult(`MCP server "${this.name}" has no tool "${tool}"`);
    if (entry.blocked) return errorResult(`Refused: ${entry.blocked}.`);
    const client = this.client!;
    const timeout = this.options.config.timeoutMs ?? this.options.callTimeoutMs ?? 60_000;
    try {
      const meta = this.options.callMeta?.(tool, args, this.options.config, origin);
      const params = { name: tool, arguments: args, ...(meta ? { _meta: meta } : {}) };
      const result = this.http
        ? checkOutput(tool, entry, await callToolOverHttp(this.http, params, { signal, timeoutMs: timeout }))
        : await client.callTool(params, undefined, { signal, timeout });
      return {
        content: (result.content ?? []) as McpCallResult['content'],
        ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
        ...(result.isError ? { isError: true } : {}),
      };
    } catch (error) {
      const message = (error as Error).message;
      // A transport failure (not an MCP error answer, a timeout or an abort) means the server is
      // gone: the next calls fail fast while it reconnects. This call is not retried: it may have run.
      if (!(error instanceof McpError) && !signal.aborted && this.client === client) {
        this.client = undefined;
        void client.close().catch(() => undefined);
        this.fail(error as Error);
      }
      return errorResult(`${mcpToolName(this.name, tool)} failed: ${message}`);
    }
  }

  async close(): Promise<void> {
    this.state = 'closed';
    clearTimeout(this.retry);
    // The last client made, connected or still connecting (its connect then finds itself superseded).
    const client = this.current;
    this.current = undefined;
    this.client = undefined;
    this.http = undefined;
    await client?.close().catch(() => undefined);
  }
}

/** The SDK client's HTTP session as http-call.ts uses it (read at each call: the id may change). */
function httpSession(
  client: Client,
  transport: StreamableHTTPClientTransport,
  config: ServerConfig,
  closed: AbortSignal,
): HttpCallSession {
  return {
    closed,
    url: new URL((config as { url: string }).url),
    // Lower-cased, so a configured `Accept` or `Content-Type` is replaced, never sent twice.
    headers: Object.fromEntries(
      Object.entries((config as { headers?: Record<string, string> }).headers ?? {}).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    ),
    get sessionId() {
      return transport.sessionId;
    },
    get protocolVersion() {
      return transport.protocolVersion;
    },
    onOther: (message) => transport.onmessage?.(message),
    cancel: (requestId, reason) =>
      void client
        .notification({ method: 'notifications/cancelled', params: { requestId, reason } })
        .catch(() => undefined),
  };
}

/** As the SDK's client: a tool with an output schema must return matching structured content. */
function checkOutput<T extends { structuredContent?: unknown; isError?: boolean }>(
  tool: string,
  entry: UpstreamTool,
  result: T,
): T {
  if (!entry.validateOutput) return result;
  if (!result.structuredContent && !result.isError)
    throw new McpError(
      ErrorCode.InvalidRequest,
      `Tool ${tool} has an output schema but did not return structured content`,
    );
  if (result.structuredContent) {
    const checked = entry.validateOutput(result.structuredContent);
    if (!checked.valid)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Structured content does not match the tool's output schema: ${checked.errorMessage}`,
      );
  }
  return result;
}
