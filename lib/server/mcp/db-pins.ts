// Pins in the database, so a definition changed while Gatehouse was down is still caught, and an
// acceptance made on one instance holds on every other. A definition is stored as storableValue
// makes it (NUL and lone surrogates, which jsonb refuses, as U+FFFD) while its digest stays the one
// of the definition as listed: so an upstream cannot make a pin, or a pending change, fail to be
// recorded, and comparisons with later listings are unchanged.
import type { McpQueries } from '../../db/mcp';
import { storableValue } from '../../db/storable-json';
import type { PinnedDefinition } from '../../agent/tools/mcp/pin';
import type { PinRecord, PinStore } from './pins';

export class DbPinStore implements PinStore {
  constructor(private readonly q: McpQueries) {}

  async list(server: string): Promise<PinRecord[]> {
    const rows = await this.q.listPins({ server });
    return rows.map((row) => ({
      server: row.server,
      tool: row.tool,
      digest: row.digest,
      definition: row.definition as unknown as PinnedDefinition,
      ...(row.pendingDigest && row.pendingDefinition
        ? {
            pending: {
              digest: row.pendingDigest,
              definition: row.pendingDefinition as unknown as PinnedDefinition,
              seenAt: (row.pendingSeenAt ?? row.createdAt).toISOString(),
            },
          }
        : {}),
      ...(row.acceptedBy ? { acceptedBy: row.acceptedBy } : {}),
      ...(row.acceptedAt ? { acceptedAt: row.acceptedAt.toISOString() } : {}),
    }));
  }

  async pin(record: { server: string; tool: string; digest: string; definition: PinnedDefinition }) {
    await this.q.insertPin({ ...record, definition: { ...storableValue(record.definition) } });
  }

  async markPending(record: { server: string; tool: string; digest: string; definition: PinnedDefinition }) {
    await this.q.markPending({ ...record, definition: { ...storableValue(record.definition) } });
  }

  async accept(input: { server: string; tool: string; digest: string; by: string }) {
    return (await this.q.acceptPending(input)) !== undefined;
  }
}
