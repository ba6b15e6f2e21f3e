// Data directories for servers a spec starts itself. A spec that is not about the first start
// gets its embedded database copied from the migrated template the unit tests make (keyed by
// PGlite's version and the migrations: lib/db/test-support/pgdata-template.ts), not made by
// initdb: a start then takes about 6 s less of a 2-core machine's CPU. The suite's own servers
// (playwright.config.ts) and the specs about a first start keep a real one.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedPgliteDir } from '../../lib/db/test-support/pgdata-template';

/** A new data directory under the temp dir whose `db/pgdata` holds a migrated, empty cluster. */
export async function seededDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  await seedPgliteDir(path.join(dir, 'db'));
  return dir;
}
