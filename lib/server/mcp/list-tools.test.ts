// listAllTools and withoutDuplicates: a listing is read whole within its bounds (pages, tools,
// time) or fails naming the bound; a name listed twice is left out whole.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { listAllTools, MAX_LIST_PAGES, MAX_LISTED_TOOLS, MAX_LISTING_MS, withoutDuplicates } from './list-tools';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

/** A client answering page n (its cursor) with `perPage` tools, and a next cursor while n < pages. */
function paged(pages: number, perPage: number, onPage: () => void = () => undefined) {
  const timeouts: number[] = [];
  return {
    timeouts,
    async listTools(params?: { cursor?: string }, options?: { timeout?: number }) {
      onPage();
      timeouts.push(options?.timeout ?? -1);
      const n = Number(params?.cursor ?? 1);
      return {
        tools: Array.from({ length: perPage }, (_, i) => tool(`t${n}-${i}`)),
        ...(n < pages ? { nextCursor: String(n + 1) } : {}),
      };
    },
  };
}

describe('listAllTools', () => {
  it.each([
    { pages: 1, perPage: 3, listed: 3 },
    { pages: MAX_LIST_PAGES, perPage: 1, listed: MAX_LIST_PAGES },
    { pages: 2, perPage: MAX_LISTED_TOOLS / 2, listed: MAX_LISTED_TOOLS },
  ])('reads $pages page(s) of $perPage whole', async ({ pages, perPage, listed }) => {
    expect(await listAllTools(paged(pages, perPage) as never, 1_000)).toHaveLength(listed);
  });

  it.each([
    { pages: MAX_LIST_PAGES + 1, perPage: 0, error: /past 100 pages/ },
    { pages: Infinity, perPage: 0, error: /past 100 pages/ },
    { pages: 2, perPage: MAX_LISTED_TOOLS / 2 + 1, error: /more than 10000 tools/ },
    { pages: 1, perPage: MAX_LISTED_TOOLS + 1, error: /more than 10000 tools/ },
  ])('fails past its bound: $pages page(s) of $perPage', async ({ pages, perPage, error }) => {
    await expect(listAllTools(paged(pages, perPage) as never, 1_000)).rejects.toThrow(error);
  });

  it('fails once the listing as a whole takes longer than its budget, each page given what is left', async () => {
    let clock = 0;
    const client = paged(Infinity, 0, () => (clock += 25_000));
    await expect(listAllTools(client as never, 30_000, () => clock)).rejects.toThrow(
      new RegExp(`more than ${MAX_LISTING_MS} ms`),
    );
    expect(client.timeouts).toEqual([30_000, 30_000, 10_000]);
  });
});

describe('withoutDuplicates', () => {
  it('leaves every copy of a name listed twice out, with a reason, and keeps the rest in order', () => {
    const { unique, duplicated } = withoutDuplicates([tool('a'), tool('b'), tool('a'), tool('c'), tool('a')]);
    expect(unique.map((t) => t.name)).toEqual(['b', 'c']);
    expect(duplicated).toEqual([{ tool: 'a', reason: expect.stringMatching(/listed 3 times/) }]);
  });
});
