// Upstream tools are named `mcp__<server>__<tool>`, as Claude Code names them, so rules written
// for Claude Code (`mcp__github__*`) carry over unchanged.
export const MCP_PREFIX = 'mcp__';

export const mcpToolName = (server: string, tool: string) => `${MCP_PREFIX}${server}__${tool}`;

/** The server and upstream tool of a Gatehouse tool name; undefined when it is not an MCP tool. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  // Server names never contain `__` nor start or end with `_` (ServerNameSchema, config.ts), so in
  // `<server>__<tool>` the first `__` is the one after the server, whatever the tool's name (`_x`,
  // `a__b`). A server name ending in `_` would break this: `docs_` + `x` reads as `docs` + `_x`.
  const at = rest.indexOf('__');
  if (at <= 0 || at + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}
