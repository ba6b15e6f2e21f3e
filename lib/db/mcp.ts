// MCP servers added on the Servers page and pinned tool definitions. A pin is written once (the
// first definition wins); a changed definition only fills `pending_*`; accepting is one
// conditional update on the pending digest, so two administrators cannot accept different texts.
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from './database';
import { mcpServers, mcpToolPins, type McpServerRow, type McpToolPinRow } from './schema';

type Definition = Record<string, unknown>;

export function mcpQueries(db: Database) {
  return {
    async listServers(): Promise<McpServerRow[]> {
      return db.select().from(mcpServers).orderBy(asc(mcpServers.name));
    },

    async getServer({ name }: { name: string }): Promise<McpServerRow | undefined> {
      const [row] = await db.select().from(mcpServers).where(eq(mcpServers.name, name));
      return row;
    },

    /** Adds or replaces a server; returns whether it was new. */
    async putServer(input: { name: string; config: Definition; secrets: string | null; by: string }): Promise<boolean> {
      const [row] = await db
        .insert(mcpServers)
        .values({ name: input.name, config: input.config, secrets: input.secrets, updatedBy: input.by })
        .onConflictDoUpdate({
          target: mcpServers.name,
          set: { config: input.config, secrets: input.secrets, updatedBy: input.by, updatedAt: new Date() },
        })
        .returning({ createdAt: mcpServers.createdAt, updatedAt: mcpServers.updatedAt });
      return row !== undefined && row.createdAt.getTime() === row.updatedAt.getTime();
    },

    async deleteServer({ name }: { name: string }): Promise<boolean> {
      const rows = await db.delete(mcpServers).where(eq(mcpServers.name, name)).returning({ name: mcpServers.name });
      return rows.length > 0;
    },

    /** Forgets a server's pins (the server is removed: added anew, its tools are pinned afresh); how many. */
    async deletePins({ server }: { server: string }): Promise<number> {
      const rows = await db
        .delete(mcpToolPins)
        .where(eq(mcpToolPins.server, server))
        .returning({ tool: mcpToolPins.tool });
      return rows.length;
    },

    async listPins({ server }: { server: string }): Promise<McpToolPinRow[]> {
      return db.select().from(mcpToolPins).where(eq(mcpToolPins.server, server)).orderBy(asc(mcpToolPins.tool));
    },

    async insertPin(input: { server: string; tool: string; digest: string; definition: Definition }): Promise<void> {
      await db.insert(mcpToolPins).values(input).onConflictDoNothing();
    },

    async markPending(input: { server: string; tool: string; digest: string; definition: Definition }): Promise<void> {
      await db
        .update(mcpToolPins)
        .set({ pendingDigest: input.digest, pendingDefinition: input.definition, pendingSeenAt: new Date() })
        .where(and(eq(mcpToolPins.server, input.server), eq(mcpToolPins.tool, input.tool)));
    },

    /** The pending definition with this digest becomes the pin; false when it is not pending (any more). */
    async acceptPending(input: {
      server: string;
      tool: string;
      digest: string;
      by: string;
    }): Promise<McpToolPinRow | undefined> {
      const [row] = await db
        .update(mcpToolPins)
        .set({
          digest: input.digest,
          definition: mcpToolPins.pendingDefinition as never,
          pendingDigest: null,
          pendingDefinition: null,
          pendingSeenAt: null,
          acceptedBy: input.by,
          acceptedAt: new Date(),
        })
        .where(
          and(
            eq(mcpToolPins.server, input.server),
            eq(mcpToolPins.tool, input.tool),
            eq(mcpToolPins.pendingDigest, input.digest),
          ),
        )
        .returning();
      return row;
    },
  };
}

export type McpQueries = ReturnType<typeof mcpQueries>;
