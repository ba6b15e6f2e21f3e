// DROP DATABASE ... WITH (FORCE) as a non-superuser fails with 42501 while an autovacuum worker is
// in that database (PostgreSQL 15 will not let the owner terminate it): a scratch database that
// got many writes may be being vacuumed at the moment it is dropped. The worker is gone within
// moments, so the drop is tried again. Used by scripts/ensure-postgres.mjs, the tests' scratch
// databases (lib/db/test-support/postgres.ts) and bench:gate.

const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Drops `quotedName` (an identifier, already quoted), retrying for up to 5 s while autovacuum holds it.
 * @param {{ query(text: string): Promise<unknown> }} client
 * @param {string} quotedName
 */
export async function dropDatabaseForce(client, quotedName) {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${quotedName} WITH (FORCE)`);
      return;
    } catch (error) {
      if (error?.code !== INSUFFICIENT_PRIVILEGE || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
