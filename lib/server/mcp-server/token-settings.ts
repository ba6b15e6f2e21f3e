// Per API token: what an ask does for an MCP client that cannot answer elicitation (`wait`, the
// default, holds the call until it is decided in Gatehouse; `decline` denies it at once), and which
// tools its MCP clients see (globs over the exposed names; unset: every tool).
import picomatch from 'picomatch';
import { z } from 'zod';

export const WithoutElicitationSchema = z.enum(['wait', 'decline']);

export const withoutElicitationKey = (tokenId: string) => `mcp.without-elicitation:${tokenId}`;

/** Which tools a token's MCP clients see: names or globs (`bash`, `mcp__github__*`). */
export const ExposedToolsSchema = z.array(z.string().min(1).max(200)).max(100);

export const exposedToolsKey = (tokenId: string) => `mcp.tools:${tokenId}`;

/** A filter over tool names for a token's stored patterns; undefined patterns expose everything. */
export function exposedBy(patterns: readonly string[] | undefined): (name: string) => boolean {
  if (patterns === undefined) return () => true;
  const matchers = patterns.map((pattern) => picomatch(pattern, { dot: true }));
  return (name) => matchers.some((matches) => matches(name));
}
