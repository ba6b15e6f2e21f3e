// Finds a PostgreSQL server for the tests. TEST_DATABASE_URL is used as given (nothing is started).
// Otherwise the local Debian cluster is started and a `gatehouse` role (CREATEDB) and a
// `gatehouse_test` database are provisioned. Each test suite then gets a database of its own.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { dropDatabaseForce } from '../../../scripts/drop-database.mjs';

export const LOCAL_TEST_URL = 'postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_test';

export type PostgresProbe = { url: string; reason?: undefined } | { url?: undefined; reason: string };

async function canConnect(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function run(command: string, args: string[], input?: string): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { input, encoding: 'utf8', timeout: 30_000 });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim(),
  };
}

const PROVISION_SQL = `
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gatehouse') THEN
    CREATE ROLE gatehouse LOGIN PASSWORD 'gatehouse' CREATEDB;
  END IF;
END $$;
ALTER ROLE gatehouse LOGIN PASSWORD 'gatehouse' CREATEDB;
SELECT 'CREATE DATABASE gatehouse_test OWNER gatehouse'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'gatehouse_test') \\gexec
`;

/**
 * Starts the stopped local clusters and provisions the test role and database (as root). Says
 * whether waiting for the server can help: false when there is no cluster to start.
 */
function startLocalCluster(): { worthWaiting: boolean; notes: string[] } {
  const notes: string[] = [];
  const clusters = run('pg_lsclusters', ['--no-header']);
  const lines = clusters.ok ? clusters.output.split('\n').filter((line) => line.trim()) : [];
  if (lines.length === 0)
    return { worthWaiting: false, notes: [`no local cluster (pg_lsclusters: ${clusters.output || 'none'})`] };
  for (const line of lines) {
    const [version, name, , status] = line.trim().split(/\s+/);
    if (!version || !name || status === 'online') continue;
    const started = run('pg_ctlcluster', [version, name, 'start']);
    // Test files start in parallel: "already running" from a sibling's start is fine.
    if (!started.ok) notes.push(`pg_ctlcluster ${version} ${name} start: ${started.output}`);
  }
  if (process.getuid?.() !== 0)
    return { worthWaiting: true, notes: [...notes, 'not root: cannot provision the test role'] };
  const provisioned = run(
    'runuser',
    ['-u', 'postgres', '--', 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'postgres'],
    PROVISION_SQL,
  );
  if (!provisioned.ok) notes.push(`provisioning: ${provisioned.output}`);
  return { worthWaiting: true, notes };
}

export async function probePostgres(): Promise<PostgresProbe> {
  const explicit = process.env.TEST_DATABASE_URL;
  if (explicit) {
    const error = await canConnect(explicit);
    return error ? { reason: `TEST_DATABASE_URL is set but unreachable: ${error}` } : { url: explicit };
  }
  let last = await canConnect(LOCAL_TEST_URL);
  if (!last) return { url: LOCAL_TEST_URL };
  const { worthWaiting, notes } = startLocalCluster();
  for (let attempt = 0; worthWaiting && attempt < 20; attempt++) {
    const error = await canConnect(LOCAL_TEST_URL);
    if (!error) return { url: LOCAL_TEST_URL };
    last = error;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { reason: [`cannot reach ${LOCAL_TEST_URL}: ${last}`, ...notes].join('; ') };
}

/** A fresh database on the server of `adminUrl`, so test files can run in parallel. */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gatehouse_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await dropDatabaseForce(client, `"${name}"`);
      } finally {
        await client.end();
      }
    },
  };
}
