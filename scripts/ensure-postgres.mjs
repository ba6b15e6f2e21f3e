#!/usr/bin/env node
// Gets a fresh, empty PostgreSQL database for the e2e run and prints its URL: starts the local
// Debian cluster if it is down, provisions the `gatehouse` role (as lib/db/test-support/postgres.ts
// does for the unit tests), then drops and recreates the database so every run starts clean.
// The database is E2E_DATABASE_URL, default postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_e2e
// (never DATABASE_URL: that may be someone's real database). Exits non-zero when it cannot, so the
// e2e run fails loudly instead of skipping. Plain Node and the `pg` dependency.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { dropDatabaseForce } from './drop-database.mjs';

const DEFAULT_E2E_DATABASE_URL = 'postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_e2e';

const target = new URL(process.env.E2E_DATABASE_URL || DEFAULT_E2E_DATABASE_URL);
const database = decodeURIComponent(target.pathname.slice(1));
const maintenance = new URL(target);
maintenance.pathname = '/postgres';

function log(message) {
  console.error(`ensure-postgres: ${message}`);
}

function fail(message) {
  log(message);
  process.exit(1);
}

function run(command, args, input) {
  const result = spawnSync(command, args, { input, encoding: 'utf8', timeout: 60_000 });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim(),
  };
}

async function canConnect(url) {
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error.message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// The role of the target URL, with CREATEDB so it can recreate its database. Only for the local
// cluster, run as the postgres superuser.
function provisionSql(role, password) {
  const ident = `"${role.replaceAll('"', '""')}"`;
  const literal = (text) => `'${text.replaceAll("'", "''")}'`;
  return `
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${literal(role)}) THEN
    CREATE ROLE ${ident} LOGIN PASSWORD ${literal(password)} CREATEDB;
  END IF;
END $$;
ALTER ROLE ${ident} LOGIN PASSWORD ${literal(password)} CREATEDB;
`;
}

/** Starts the stopped local clusters and provisions the role; returns notes for the error message. */
function startLocalCluster() {
  const notes = [];
  const clusters = run('pg_lsclusters', ['--no-header']);
  const lines = clusters.ok ? clusters.output.split('\n').filter((line) => line.trim()) : [];
  if (lines.length === 0) return [`no local cluster to start (pg_lsclusters: ${clusters.output || 'none'})`];
  for (const line of lines) {
    const [version, name, , status] = line.trim().split(/\s+/);
    if (!version || !name || status === 'online') continue;
    log(`starting cluster ${version}/${name}`);
    const started = run('pg_ctlcluster', [version, name, 'start']);
    // A concurrent start (the unit tests do the same) says "already running": that is fine.
    if (!started.ok) notes.push(`pg_ctlcluster ${version} ${name} start: ${started.output}`);
  }
  const asPostgres =
    process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', 'psql']] : ['psql', ['-U', 'postgres']];
  const role = decodeURIComponent(target.username);
  const provisioned = run(
    asPostgres[0],
    [...asPostgres[1], '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', 'postgres'],
    provisionSql(role, decodeURIComponent(target.password)),
  );
  if (!provisioned.ok) notes.push(`provisioning role ${role}: ${provisioned.output}`);
  return notes;
}

async function waitForServer() {
  let error = await canConnect(maintenance);
  if (!error) return;
  const notes = startLocalCluster();
  for (let attempt = 0; attempt < 30 && error; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    error = await canConnect(maintenance);
  }
  if (error)
    fail([`cannot reach PostgreSQL at ${maintenance.host} as ${target.username}: ${error}`, ...notes].join('\n  '));
}

async function recreateDatabase() {
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const ident = `"${database.replaceAll('"', '""')}"`;
    await dropDatabaseForce(client, ident);
    await client.query(`CREATE DATABASE ${ident}`);
  } finally {
    await client.end();
  }
}

// A guard against pointing this at a database that matters: it is dropped.
if (!/e2e|test/i.test(database))
  fail(`refusing to drop "${database}": the e2e database's name must contain "e2e" or "test"`);
try {
  await waitForServer();
  await recreateDatabase();
} catch (error) {
  fail(`could not prepare ${database}: ${error.message}`);
}
log(`fresh database ${database} on ${target.host}`);
console.log(target.toString());
