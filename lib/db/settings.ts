// Server-wide values: some created once and then only read (the cookie-signing secret; the first
// writer wins: concurrent `ensureSetting` calls all return the one stored value), some set by a
// person (`putSetting`, last writer wins: an MCP token's choice for clients without elicitation).
import { eq } from 'drizzle-orm';
import type { Database } from './database';
import { counted } from './decision-changes';
import { settings } from './schema';

/** `changed` counts each write once it has ended (a token's MCP tool choice is read from memory: decision-changes.ts). */
export function settingQueries(db: Database, changed: () => void = () => {}) {
  async function getSetting({ key }: { key: string }): Promise<string | undefined> {
    const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    return row?.value;
  }

  return {
    getSetting,

    async putSetting({ key, value }: { key: string; value: string }): Promise<void> {
      await counted(changed, () =>
        db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }),
      );
    },

    /** The stored value for `key`, storing `value` first when there is none. */
    async ensureSetting({ key, value }: { key: string; value: string }): Promise<string> {
      const [row] = await db
        .insert(settings)
        .values({ key, value })
        .onConflictDoNothing()
        .returning({ value: settings.value });
      if (row) return row.value;
      const stored = await getSetting({ key });
      if (stored === undefined) throw new Error(`Setting ${key} vanished while being created`);
      return stored;
    },
  };
}

export type SettingQueries = ReturnType<typeof settingQueries>;
