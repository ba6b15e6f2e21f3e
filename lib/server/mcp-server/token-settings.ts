// Per API token: what an ask does for an MCP client that cannot answer elicitation (`wait`, the
// default, holds the call until it is decided in Gatehouse; `decline` denies it at once), and which
// tools its MCP clients see (globs over the exposed names; unset: every tool).
import picomatch from 'picomatch';
import { z } from 'zod';
import type { Queries } from '../../db';

export const WithoutElicitationSchema = z.enum(['wait', 'decline']);

export const withoutElicitationKey = (tokenId: string) => `mcp.without-elicitation:${tokenId}`;

/** Which tools a token's MCP clients see: names or globs (`bash`, `mcp__github__*`). */
export const ExposedToolsSchema = z.array(z.string().min(1).max(200)).max(100);

export const exposedToolsKey = (tokenId: string) => `mcp.tools:${tokenId}`;

const exposesAll = () => true;
/** Compiled filters by the patterns array they were made from: a held choice is compiled once, not per call. */
const compiled = new WeakMap<readonly string[], (name: string) => boolean>();

/** A filter over tool names for a token's stored patterns; undefined patterns expose everything. */
export function exposedBy(patterns: readonly string[] | undefined): (name: string) => boolean {
  if (patterns === undefined) return exposesAll;
  const known = compiled.get(patterns);
  if (known) return known;
  const matchers = patterns.map((pattern) => picomatch(pattern, { dot: true }));
  const filter = (name: string) => matchers.some((matches) => matches(name));
  compiled.set(patterns, filter);
  return filter;
}

/** Tokens whose choice is held at most; past it the memory starts over (a bound, not an eviction policy). */
const MAX_HELD = 1_000;

/**
 * A token's choice of tools, read on every listing and call. Where this process alone writes the
 * database (PGlite) it is held in memory, stamped with the count of setting writes read before
 * loading (q.decisions, lib/db/decision-changes.ts), and read again once that count moved: a change
 * still applies to the next call. With several instances every call reads it.
 */
export class ExposedTools {
  private readonly held = new Map<string, { version: number; value: readonly string[] | undefined }>();

  constructor(
    private readonly q: Pick<Queries, 'settings' | 'decisions'>,
    private readonly memo: boolean,
  ) {}

  /** The held choice while it is current, without a read; else undefined (then `get` reads it). */
  peek(tokenId: string): { patterns: readonly string[] | undefined } | undefined {
    const held = this.memo ? this.held.get(tokenId) : undefined;
    return held && held.version === this.q.decisions.version ? { patterns: held.value } : undefined;
  }

  async get(tokenId: string): Promise<readonly string[] | undefined> {
    const version = this.q.decisions.version;
    const held = this.memo ? this.held.get(tokenId) : undefined;
    if (held && held.version === version) return held.value;
    // Stored as JSON; '' (cleared) or anything unreadable exposes every tool, as before a choice.
    const raw = await this.q.settings.getSetting({ key: exposedToolsKey(tokenId) });
    let value: unknown;
    try {
      value = raw ? JSON.parse(raw) : undefined;
    } catch {
      value = undefined;
    }
    const stored = ExposedToolsSchema.safeParse(value);
    // Frozen: exposedBy keeps its compiled filter by this array.
    const result = stored.success ? Object.freeze(stored.data) : undefined;
    if (this.memo) {
      if (this.held.size >= MAX_HELD) this.held.clear();
      this.held.set(tokenId, { version, value: result });
    }
    return result;
  }
}
