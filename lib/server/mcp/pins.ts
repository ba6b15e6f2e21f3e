// Where pinned tool definitions live. The first definition seen of a tool is pinned; a different
// one is kept beside it as pending until an administrator accepts it (then it becomes the pin).
import type { PinnedDefinition } from '../../agent/tools/mcp/pin';

export interface PinRecord {
  server: string;
  tool: string;
  digest: string;
  definition: PinnedDefinition;
  /** A changed definition the server now lists, waiting for an administrator. */
  pending?: { digest: string; definition: PinnedDefinition; seenAt: string };
  acceptedBy?: string;
  acceptedAt?: string;
}

export interface PinStore {
  list(server: string): Promise<PinRecord[]>;
  /** Pins a tool seen for the first time (no-op when one exists: the first pin wins). */
  pin(record: { server: string; tool: string; digest: string; definition: PinnedDefinition }): Promise<void>;
  /** Records a changed definition as pending (replacing an older pending one). */
  markPending(record: { server: string; tool: string; digest: string; definition: PinnedDefinition }): Promise<void>;
  /** Makes the pending definition with this digest the pin; false when it is not pending (any more). */
  accept(input: { server: string; tool: string; digest: string; by: string }): Promise<boolean>;
}

const key = (server: string, tool: string) => `${server}\u0000${tool}`;

export class MemoryPinStore implements PinStore {
  private readonly pins = new Map<string, PinRecord>();

  async list(server: string) {
    return [...this.pins.values()].filter((p) => p.server === server).map((p) => structuredClone(p));
  }

  async pin(record: { server: string; tool: string; digest: string; definition: PinnedDefinition }) {
    const k = key(record.server, record.tool);
    if (!this.pins.has(k)) this.pins.set(k, structuredClone(record));
  }

  async markPending(record: { server: string; tool: string; digest: string; definition: PinnedDefinition }) {
    const existing = this.pins.get(key(record.server, record.tool));
    if (!existing) return;
    existing.pending = {
      digest: record.digest,
      definition: structuredClone(record.definition),
      seenAt: new Date().toISOString(),
    };
  }

  async accept(input: { server: string; tool: string; digest: string; by: string }) {
    const existing = this.pins.get(key(input.server, input.tool));
    if (!existing?.pending || existing.pending.digest !== input.digest) return false;
    this.pins.set(key(input.server, input.tool), {
      server: input.server,
      tool: input.tool,
      digest: existing.pending.digest,
      definition: existing.pending.definition,
      acceptedBy: input.by,
      acceptedAt: new Date().toISOString(),
    });
    return true;
  }
}
