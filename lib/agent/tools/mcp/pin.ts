// Tool-definition pinning: the first definition seen of a tool is recorded with a digest; a later
// definition with another digest (a description that now tells the model to read secrets) is
// refused until an administrator accepts it. Only what the model and the gate read counts.
import { createHash } from 'node:crypto';

export interface PinnedDefinition {
  name: string;
  description?: string;
  inputSchema: unknown;
  annotations?: unknown;
}

/** JSON with object keys sorted at every depth, so key order never changes a digest. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The part of a listed tool that is pinned: name, description, input schema, annotations. */
export function pinnedPart(tool: PinnedDefinition): PinnedDefinition {
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? {},
    annotations: tool.annotations ?? {},
  };
}

export function definitionDigest(tool: PinnedDefinition): string {
  return createHash('sha256')
    .update(canonicalJson(pinnedPart(tool)))
    .digest('hex');
}

export type PinStatus =
  | { status: 'new'; digest: string }
  | { status: 'same'; digest: string }
  | { status: 'changed'; digest: string; pinnedDigest: string };

/** How a listed definition compares with the pinned digest (undefined: never seen). */
export function comparePin(pinnedDigest: string | undefined, tool: PinnedDefinition): PinStatus {
  const digest = definitionDigest(tool);
  if (pinnedDigest === undefined) return { status: 'new', digest };
  return digest === pinnedDigest ? { status: 'same', digest } : { status: 'changed', digest, pinnedDigest };
}
