// A migrated in-memory PGlite cluster, dumped once to the temp dir and loaded by every test file:
// loading a dump takes a fraction of a fresh initdb. Keyed by the migrations and PGlite's version.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/** A short hash of PGlite's version and the migrations: a template made from other ones is never used. */
export async function templateKey(migrationsFolder: string): Promise<string> {
  const hash = createHash('sha256');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(await readFile(path.join(path.dirname(pgliteEntry), '..', 'package.json')));
  for (const folder of [migrationsFolder, path.join(migrationsFolder, 'meta')]) {
    for (const name of (await readdir(folder)).sort()) {
      if (name.endsWith('.sql') || name.endsWith('.json'))
        hash.update(name).update(await readFile(path.join(folder, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

export async function migratedTemplate(migrationsFolder: string): Promise<Blob> {
  const file = path.join(os.tmpdir(), `gatehouse-pglite-${await templateKey(migrationsFolder)}.tgz`);
  const cached = await readFile(file).catch(() => undefined);
  if (cached) return new Blob([cached]);
  const client = await PGlite.create();
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    const dump = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    // Parallel test files may build it at the same time: write privately, then rename into place.
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, dump);
    await rename(temp, file);
    return new Blob([dump]);
  } finally {
    await client.close();
  }
}
