// One upstream's tools/list, read whole and bounded: an upstream (which may be an attacker's) that
// pages forever, or names more tools than anyone configures, makes the listing fail (the server is
// then unavailable, with the bound named) rather than keep the connect, and every call waiting on
// it, pending. The size of each page is bounded by the transport (bounded-fetch.ts).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** Pages of one listing: far more than a real server uses (the SDK's servers send one page). */
export const MAX_LIST_PAGES = 100;
/** Tools of one listing: more than any model could be given, and each is pinned (a database write). */
export const MAX_LISTED_TOOLS = 10_000;
/**
 * The whole listing's time (each page also has its own timeout): 100 pages answered just inside
 * their timeout would otherwise hold the connect, and the calls waiting on it, for minutes.
 */
export const MAX_LISTING_MS = 60_000;

/** Every page of the server's tools; throws when a bound above is passed. */
export async function listAllTools(
  client: Pick<Client, 'listTools'>,
  pageTimeoutMs: number,
  now: () => number = Date.now,
): Promise<Tool[]> {
  const budget = Math.max(MAX_LISTING_MS, pageTimeoutMs);
  const deadline = now() + budget;
  const listed: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const left = deadline - now();
    if (left <= 0) throw new Error(`its tools/list took more than ${budget} ms in all: not used`);
    const answer = await client.listTools(cursor ? { cursor } : {}, { timeout: Math.min(pageTimeoutMs, left) });
    listed.push(...answer.tools);
    if (listed.length > MAX_LISTED_TOOLS)
      throw new Error(`its tools/list names more than ${MAX_LISTED_TOOLS} tools: not used`);
    cursor = answer.nextCursor;
    if (!cursor) return listed;
    if (page >= MAX_LIST_PAGES) throw new Error(`its tools/list goes on past ${MAX_LIST_PAGES} pages: not used`);
  }
}

/**
 * The tools named once, and the names listed more than once. Such a name is left out whole,
 * neither copy pinned nor shown: which copy the server would run (and which one another client, or
 * a later listing, would take) is unknown, and keeping "the first" would let the server show one
 * definition to the pin and mean another. A server that does this loses that tool, with a reason on
 * the Servers page, rather than having a guess made for it.
 */
export function withoutDuplicates(tools: readonly Tool[]): {
  unique: Tool[];
  duplicated: { tool: string; reason: string }[];
} {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const duplicated = [...counts]
    .filter(([, count]) => count > 1)
    .map(([tool, count]) => ({
      tool,
      reason: `listed ${count} times in one tools/list, with no way to tell which copy the server runs: left out`,
    }));
  return { unique: tools.filter((tool) => counts.get(tool.name) === 1), duplicated };
}
