// Empties the access-control tables before each test of a describeStores suite (stores.ts empties
// the run tables only). Children first: tokens reference users.
import { getTableName, sql } from 'drizzle-orm';
import { beforeEach } from 'vitest';
import { apiTokens, loginTokens, sessions, settings, users } from '../schema';
import type { StoreContext } from './stores';

const STATEMENTS = [sessions, loginTokens, apiTokens, users, settings].map((table) =>
  sql.raw(`DELETE FROM "${getTableName(table)}"`),
);

export function emptyAuthTablesBeforeEach(store: () => StoreContext): void {
  beforeEach(async () => {
    for (const statement of STATEMENTS) await store().db.execute(statement);
  });
}
