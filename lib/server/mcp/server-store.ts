// Servers added on the Servers page: stored with their secrets encrypted, loaded into the catalog
// at start, and changed through here (each change audited without its secrets). The file's
// servers win: a stored server of the same name is ignored, and the file's are read-only.
import { isHttp, parseServer, type ConfigError, type ServerConfig } from '../../agent/tools/mcp/config';
import type { Queries } from '../../db';
import { AppError } from '../http/errors';
import type { McpCatalog } from './catalog';
import { refuseKeptHeadersElsewhere, storedSecrets } from './kept-secrets';
import { decryptSecrets, encryptSecrets, mergeMasked } from './secrets';

export interface ServerStoreContext {
  q: Queries;
  mcp: McpCatalog;
  /** The encryption secret: GATEHOUSE_SECRET, else the session secret kept in the database. */
  secret: string;
  /** GATEHOUSE_MCP_UI_STDIO=1. */
  allowStdio: boolean;
}

function split(config: ServerConfig): {
  plain: Record<string, unknown>;
  env?: Record<string, string>;
  headers?: Record<string, string>;
} {
  if (isHttp(config)) {
    const { headers, ...plain } = config;
    return { plain, ...(headers ? { headers } : {}) };
  }
  const { env, ...plain } = config;
  return { plain, ...(env ? { env } : {}) };
}

/** The stored config with its secrets, as the catalog runs it. */
function join(
  plain: Record<string, unknown>,
  secrets: { env?: Record<string, string>; headers?: Record<string, string> },
) {
  return {
    ...plain,
    ...(secrets.env ? { env: secrets.env } : {}),
    ...(secrets.headers ? { headers: secrets.headers } : {}),
  } as ServerConfig;
}

/**
 * Loads the stored servers into the catalog; one that no longer parses (a name or header the schema
 * refuses now) or decrypts is logged and skipped, and shown as a load error until edited or removed.
 */
export async function loadStoredServers(
  ctx: ServerStoreContext,
  log: (line: string) => void = console.error,
): Promise<void> {
  for (const row of await ctx.q.mcp.listServers()) {
    if (ctx.mcp.sourceOf(row.name) === 'file') continue;
    try {
      const parsed = parseServer(row.name, join(row.config, decryptSecrets(row.secrets, ctx.secret)));
      if (!parsed.config) throw new Error(parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
      if (!isHttp(parsed.config) && !ctx.allowStdio) throw new Error('a stdio server needs GATEHOUSE_MCP_UI_STDIO=1');
      await ctx.mcp.putServer(row.name, parsed.config);
    } catch (error) {
      log(`[gatehouse] MCP server "${row.name}" (stored) not loaded: ${(error as Error).message}`);
      ctx.mcp.noteStoredError(row.name, `not loaded: ${(error as Error).message}`);
    }
  }
}

/**
 * What a PUT expects to find: `new` (the add form, `If-None-Match: *`) refuses to replace a server
 * of that name; `existing` (the edit form, `If-Match: *`) refuses to re-create one removed meanwhile.
 */
export type PutExpectation = 'new' | 'existing';

/**
 * Adds or replaces a stored server; true when it was added. A secret sent back as the mask keeps
 * its stored value (a mask with nothing stored is dropped, never stored as the literal mask).
 * The expectation is checked on the write's own outcome, so two racing adds cannot both win.
 */
export async function putStoredServer(
  ctx: ServerStoreContext,
  name: string,
  raw: unknown,
  by: string,
  expect?: PutExpectation,
): Promise<boolean> {
  if (ctx.mcp.sourceOf(name) === 'file')
    throw new AppError(
      'conflict:mcp_server_file',
      409,
      `MCP server "${name}" is defined in the config file and is read-only here`,
    );
  const parsed = parseServer(name, raw);
  if (!parsed.config) throw invalidServer(parsed.errors);
  if (!isHttp(parsed.config) && !ctx.allowStdio)
    throw AppError.badRequest('stdio servers can be added here only with GATEHOUSE_MCP_UI_STDIO=1', [
      {
        path: 'command',
        message:
          'stdio servers run a command on the host: add them to the config file, or set GATEHOUSE_MCP_UI_STDIO=1',
      },
    ]);
  const existing = await ctx.q.mcp.getServer({ name });
  const { plain, env, headers } = split(parsed.config);
  const stored = existing ? storedSecrets(name, existing.secrets, ctx.secret, { env, headers }) : {};
  refuseKeptHeadersElsewhere(existing?.config, parsed.config, stored.headers);
  const secrets = { env: mergeMasked(env, stored.env), headers: mergeMasked(headers, stored.headers) };
  // A kept value was checked when it was stored, but perhaps by an older, laxer schema: the whole
  // entry is checked again, so a value the client cannot send never reaches it (and its error).
  const merged = parseServer(name, join(plain, secrets));
  if (!merged.config) throw invalidServer(merged.errors);
  const created = await ctx.q.transaction(async (tx) => {
    const isNew = await tx.mcp.putServer({ name, config: plain, secrets: encryptSecrets(secrets, ctx.secret), by });
    if (expect === 'new' && !isNew)
      throw new AppError('conflict:mcp_server_exists', 412, `An MCP server named "${name}" exists already`, {
        fields: [{ path: '(name)', message: 'a server of this name exists already: edit it, or pick another name' }],
      });
    if (expect === 'existing' && isNew)
      throw new AppError('not_found:mcp_server', 404, `No MCP server "${name}" (removed meanwhile?)`);
    await tx.audit.recordAudit({
      kind: isNew ? 'mcp_server_added' : 'mcp_server_changed',
      decidedBy: by,
      // Names of secrets only, never their values.
      details: {
        server: name,
        config: plain,
        env: Object.keys(secrets.env ?? {}),
        headers: Object.keys(secrets.headers ?? {}),
      },
    });
    return isNew;
  });
  await ctx.mcp.putServer(name, merged.config);
  return created;
}

const invalidServer = (errors: ConfigError[]) =>
  AppError.badRequest(
    `Invalid server: ${errors[0]!.field} ${errors[0]!.message}`,
    errors.map((e) => ({ path: e.field, message: e.message })),
  );

export async function deleteStoredServer(ctx: ServerStoreContext, name: string, by: string): Promise<void> {
  if (ctx.mcp.sourceOf(name) === 'file')
    throw new AppError(
      'conflict:mcp_server_file',
      409,
      `MCP server "${name}" is defined in the config file and is read-only here`,
    );
  const deleted = await ctx.q.transaction(async (tx) => {
    const gone = await tx.mcp.deleteServer({ name });
    if (!gone) return false;
    // Its pins go with it: a server added anew under this name is another server, pinned afresh.
    const pins = await tx.mcp.deletePins({ server: name });
    await tx.audit.recordAudit({ kind: 'mcp_server_removed', decidedBy: by, details: { server: name, pins } });
    return true;
  });
  if (!deleted) throw new AppError('not_found:mcp_server', 404, `No MCP server "${name}"`);
  await ctx.mcp.removeServer(name);
}

/** Accepts a changed tool definition (the digest the administrator reviewed); audited. */
export async function acceptDefinition(
  ctx: ServerStoreContext,
  input: { server: string; tool: string; digest: string; by: string },
) {
  const pins = await ctx.mcp.pins.list(input.server);
  const before = pins.find((p) => p.tool === input.tool);
  const accepted = await ctx.mcp.pins.accept(input);
  if (!accepted || !before?.pending)
    throw new AppError(
      'conflict:mcp_definition',
      409,
      `No pending change of ${input.tool} with that digest (accepted already, or changed again)`,
    );
  await ctx.q.audit.recordAudit({
    kind: 'mcp_definition_accepted',
    decidedBy: input.by,
    tool: `mcp__${input.server}__${input.tool}`,
    details: { server: input.server, tool: input.tool, from: before.digest, to: input.digest },
  });
  await ctx.mcp.server(input.server)?.reload();
}
