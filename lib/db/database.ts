// The Drizzle database type every query module takes: the common Pg type that both the PGlite and
// the node-postgres drivers (and their transactions) satisfy, so one query module serves both.
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

export type Database = PgDatabase<PgQueryResultHKT>;

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Releases this handle; the last handle of a store closes it (and its data-dir lock). */
  close(): Promise<void>;
}
