// The server's one runtime per process: config, the database, the durable relay broker, the grant
// store and the run manager. A global singleton, so Next's dev-mode module reloads reuse it
// instead of opening the database twice.
import path from 'node:path';
import { resolveModel } from '../agent';
import { ensureAdmin, LoginThrottle, resolveSessionSecret } from '../auth';
import { createQueries, openDatabase, type DatabaseHandle, type Queries } from '../db';
import { DurableRelayBroker } from '../relay';
import { parseConfig, type Config } from './config';
import { DbGrantStore } from './grant-store';
import { DbRelayStore } from './relay-store';
import { RunManager } from './run-manager';
import { loadPolicy } from './policy-store';

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  q: Queries;
  broker: DurableRelayBroker;
  runs: RunManager;
  /** Signs the session cookies (GATEHOUSE_SECRET, else a random secret kept in the database). */
  sessionSecret: string;
  loginThrottle: LoginThrottle;
}

const KEY = Symbol.for('gatehouse.runtime');
type Holder = { [KEY]?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  const holder = globalThis as Holder;
  holder[KEY] ??= createRuntime().catch((error) => {
    // Let the next request try again (e.g. PostgreSQL was down at boot).
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}

async function createRuntime(): Promise<Runtime> {
  const config = parseConfig();
  const database = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'db') });
  const q = createQueries(database.db);
  const sessionSecret = await resolveSessionSecret({ q, configured: config.secret });
  // First start: an admin, with GATEHOUSE_ADMIN_TOKEN as its API token or a printed one-time link.
  // (Not HOSTNAME: in a container that is the container's id. Next sets PORT for `next start`.)
  await ensureAdmin({ q, adminToken: config.adminToken, host: '127.0.0.1', port: process.env.PORT ?? 3000, ...(config.publicUrl ? { baseUrl: config.publicUrl } : {}) });
  // One process: decisions wake waiters directly, so the re-read is only a slow safety net.
  const broker = new DurableRelayBroker(new DbRelayStore(q.relays), { pollMs: 30_000 });
  const runs = new RunManager({
    q,
    broker,
    grants: new DbGrantStore(q.grants),
    model: resolveModel(config.model),
    modelName: config.model,
    resolveModel: (spec) => resolveModel(spec),
    workspace: config.workspace,
    approvalTimeoutS: config.approvalTimeoutS,
  });
  await loadPolicy(q); // seeds the built-in default policy on first start
  // Runs that were paused (or running) when the process stopped continue now, not on first use.
  void runs.recover().catch((error) => console.error('[gatehouse] could not resume runs:', (error as Error).message));
  return { config, database, q, broker, runs, sessionSecret, loginThrottle: new LoginThrottle() };
}
