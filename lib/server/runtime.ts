// The server's one runtime per process: config, the database, the durable relay broker, the grant
// store and the run manager. A global singleton, so Next's dev-mode module reloads reuse it
// instead of opening the database twice. With DATABASE_URL it also joins the other instances on
// that database (docs/DEPLOY.md): a LISTEN/NOTIFY bus, run leases, streams that follow the log.
import path from 'node:path';
import { resolveModel, warmBash } from '../agent';
import { ensureAdmin, LoginThrottle, resolveSessionSecret } from '../auth';
import { createQueries, openDatabase, type DatabaseHandle, type Queries } from '../db';
import { DurableRelayBroker } from '../relay';
import { listenForRelays, shareCredentialChanges, type ClusterOptions } from './cluster/cluster';
import { parseConfig, type Config } from './config';
import { instanceId } from './cluster/instance';
import { PgNotifyBus } from './cluster/pg-notify';
import { DbGrantStore } from './stores/grant-store';
import { DbRelayStore } from './stores/relay-store';
import { RunManager } from './runs/run-manager';
import { ExternalGate } from './external/external-gate';
import type { OutsideRecord } from './external/deferred-records';
import { OUTSIDE_RECORDS_JOURNAL, RecordJournal } from './external/record-journal';
import { RelaySignal } from './approvals/relay-signal';
import { loadPolicy } from './stores/policy-store';
import { ShadowMonitor } from './shadow/monitor';
import { startWebhooks } from './webhooks/start';
import type { WebhookSender } from './webhooks/sender';
import type { SecretBox } from './webhooks/secret-box';
import { refreshShadow, type ShadowContext } from './shadow/shadow-store';
import type { McpCatalog } from './mcp/catalog';
import { DbPinStore } from './mcp/db-pins';
import { startMcpCatalog } from './mcp/load';
import { loopbackMeta } from './mcp-server/loopback';
import { loadStoredServers } from './mcp/server-store';

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  q: Queries;
  broker: DurableRelayBroker;
  runs: RunManager;
  /** Signs the session cookies (GATEHOUSE_SECRET, else a random secret kept in the database). */
  sessionSecret: string;
  loginThrottle: LoginThrottle;
  /** With DATABASE_URL: the LISTEN/NOTIFY bus shared with the other instances. */
  bus?: PgNotifyBus;
  /** The shadow policy: this process's monitor and how its changes reach the other instances. */
  shadow: ShadowContext;
  /** Tells the approvals inbox's streams that the relays changed. */
  relaySignal: RelaySignal;
  /** The gate for outside agents (Claude Code hooks, MCP clients, POST /api/hooks/decide). */
  external: ExternalGate;
  /** The upstream MCP servers' tools (GATEHOUSE_MCP_CONFIG); this instance's own connections. */
  mcp: McpCatalog;
  /** Relay events to the registered webhooks, and the box their signing secrets are sealed in. */
  webhooks: { sender: WebhookSender; box: SecretBox; publicUrl: string; ownPort: number };
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

/** Tests only: the next getRuntime() creates a new runtime (the caller shut the last one down). */
export function forgetRuntime(): void {
  delete (globalThis as Holder)[KEY];
}

async function createRuntime(): Promise<Runtime> {
  const config = parseConfig();
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'db') },
  );
  const q = createQueries(database.db);
  const sessionSecret = await resolveSessionSecret({ q, configured: config.secret });
  // First start: an admin, with GATEHOUSE_ADMIN_TOKEN as its API token or a printed one-time link.
  // (Not HOSTNAME: in a container that is the container's id. Next sets PORT for `next start`.)
  await ensureAdmin({
    q,
    adminToken: config.adminToken,
    host: '127.0.0.1',
    port: process.env.PORT ?? 3000,
    ...(config.publicUrl ? { baseUrl: config.publicUrl } : {}),
  });
  const cluster = config.databaseUrl ? await joinCluster(config.databaseUrl, database, config.leaseTtlS) : undefined;
  const bus = cluster?.bus;
  // Decisions wake this process's waiters directly and the others' through NOTIFY, so the
  // re-read is only a slow safety net.
  const webhooks = startWebhooks({ q, config, sessionSecret });
  const relaySignal = new RelaySignal();
  const onChanged = (relayId: string) => {
    webhooks.sender.relayChanged(relayId);
    relaySignal.notify();
  };
  const relayStore = new DbRelayStore(
    q.relays,
    bus
      ? {
          onSettled: (relayId) => bus.notify('gatehouse_relay', { relayId }),
          onError: cluster.onError,
          leaseOwner: cluster.owner,
          quorum: q.quorum,
          onChanged,
        }
      : { quorum: q.quorum, onChanged },
  );
  const broker = new DurableRelayBroker(relayStore, { pollMs: 30_000 });
  if (bus) await listenForRelays(bus, broker);
  // Another instance's relays: settlements are announced; a new relay arrives with its run's events.
  if (bus)
    for (const channel of ['gatehouse_relay', 'gatehouse_events'] as const)
      await bus.subscribe(channel, () => relaySignal.notify());
  if (cluster) await shareCredentialChanges(cluster.bus, q.credentials, cluster.owner, cluster.onError);
  const shadow = await startShadow(q, database, cluster);
  const grants = new DbGrantStore(q.grants);
  const mcp = startMcpCatalog({
    pins: new DbPinStore(q.mcp),
    callMeta: loopbackMeta(sessionSecret),
    ...(config.mcpConfigPath ? { file: config.mcpConfigPath } : {}),
  });
  const runs = new RunManager({
    mcp,
    q,
    broker,
    grants,
    model: resolveModel(config.model),
    modelName: config.model,
    resolveModel: (spec) => resolveModel(spec),
    workspace: config.workspace,
    approvalTimeoutS: config.approvalTimeoutS,
    maxRunsPerUser: config.maxRunsPerUser,
    observerFor: (policy) => shadow.monitor.observerFor(policy),
    ...(cluster ? { cluster } : {}),
  });
  const external = new ExternalGate({
    q,
    broker,
    grants,
    log: runs.log,
    approvalTimeoutS: config.approvalTimeoutS,
    maxWaitingPerUser: config.maxWaitingPerUser,
    workspace: config.workspace,
    observerFor: (policy) => shadow.monitor.observerFor(policy),
    // Embedded PGlite is written by this process alone (its lock): the count of changes is complete.
    ...(database.kind === 'pglite'
      ? {
          decisionChanges: q.decisions,
          deferRecords: {
            journal: new RecordJournal<OutsideRecord>(path.join(config.dataDir, OUTSIDE_RECORDS_JOURNAL)),
            report: (error: Error) => console.error(`[gatehouse] ${error.message}`),
          },
        }
      : {}),
  });
  // Before the first outside call: what a stopped process answered and did not store.
  const recovered = await external.recoverRecords();
  if (recovered > 0) console.log(`[gatehouse] stored ${recovered} outside decision(s) journaled by the last process`);
  void loadStoredServers({
    q,
    mcp,
    secret: config.secret ?? sessionSecret,
    allowStdio: config.mcpUiStdio,
  }).catch((error) => console.error('[gatehouse] could not load the stored MCP servers:', (error as Error).message));
  await loadPolicy(q); // seeds the built-in default policy on first start
  // One instance: a relay of an outside agent still pending was held by a request that died with
  // the last process. (Several instances: another may hold it; it ends at its deadline.)
  if (!cluster)
    void external
      .cancelOrphans()
      .catch((error) => console.error('[gatehouse] outside relays:', (error as Error).message));
  // The spawn helper and a bash for the workspace, ready before the first approved command.
  void warmBash(config.workspace).catch(() => undefined);
  // Runs that were paused (or running) when the process stopped continue now, not on first use.
  void runs.recover().catch((error) => console.error('[gatehouse] could not resume runs:', (error as Error).message));
  return {
    config,
    database,
    q,
    broker,
    runs,
    sessionSecret,
    loginThrottle: new LoginThrottle(),
    shadow,
    external,
    relaySignal,
    mcp,
    webhooks,
    ...(bus ? { bus } : {}),
  };
}

async function joinCluster(databaseUrl: string, database: DatabaseHandle, leaseTtlS: number): Promise<ClusterOptions> {
  const owner = instanceId();
  const onError = (error: Error) => console.error(`[gatehouse] ${owner}:`, error.message);
  const bus = new PgNotifyBus({
    connectionString: databaseUrl,
    execute: (statement) => database.db.execute(statement),
    applicationName: `gatehouse-${owner}`,
    onError,
  });
  // Listening before the first request, so no notification is missed; the database just answered,
  // but a listener that cannot connect must not hold the boot (it keeps retrying, then re-reads).
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([bus.ready(), new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]);
  clearTimeout(timer);
  return { bus, owner, leaseTtlS, onError };
}

/**
 * The shadow monitor, loaded with the stored shadow. Its write errors are logged, not thrown (a
 * decision never waits on them). With several instances a change made elsewhere is announced on
 * the bus, and a reconnected listener re-reads (notices sent meanwhile are lost).
 */
async function startShadow(
  q: Queries,
  database: DatabaseHandle,
  cluster: ClusterOptions | undefined,
): Promise<ShadowContext> {
  let errors = 0;
  const monitor = new ShadowMonitor({
    writer: q.shadow,
    onError: (error) => {
      if (errors++ % 100 === 0)
        console.error(
          `[gatehouse] shadow policy: ${error.message} (${errors} error(s) so far; decisions are not affected)`,
        );
    },
  });
  await refreshShadow(q, monitor);
  const context: ShadowContext = { q, db: database.db, monitor };
  if (!cluster) return context;
  const { bus, owner, onError } = cluster;
  const reread = () => void refreshShadow(q, monitor).catch(onError);
  await bus.subscribe('gatehouse_shadow', ({ from }) => {
    if (from !== owner) reread();
  });
  bus.on('reconnected', reread);
  return { ...context, announce: () => void bus.notify('gatehouse_shadow', { from: owner }).catch(onError) };
}
