// One Gatehouse "process" for restart tests: PGlite in a data directory, the upstream MCP catalog
// (one http server, `notes`), a run manager with the offline model, and a stored policy that asks
// for every `mcp__notes__*` call. A test boots it twice on one directory, or boots it in a child
// process (restart-child.test-support.ts) that it kills, so the restart is a real one.
import { createOfflineModel, resolveModel } from '../../agent';
import { createQueries, type Queries } from '../../db';
import { resolveMigrationsFolder } from '../../db/migrate';
import { openPglite } from '../../db/pglite';
import { DurableRelayBroker } from '../../relay';
import { RunManager } from '../runs/run-manager';
import { DbGrantStore } from '../stores/grant-store';
import { loadPolicy } from '../stores/policy-store';
import { DbRelayStore } from '../stores/relay-store';
import { McpCatalog } from './catalog';
import { DbPinStore } from './db-pins';

export interface BootedProcess {
  q: Queries;
  mcp: McpCatalog;
  runs: RunManager;
  /** Closes the catalog and the database without settling anything (the test's "exit"). */
  close(): Promise<void>;
}

export async function bootProcess(dataDir: string, upstreamUrl: string, workspace: string): Promise<BootedProcess> {
  const store = await openPglite(dataDir, resolveMigrationsFolder());
  const q = createQueries(store.db);
  const { version, policy } = await loadPolicy(q);
  if (!policy.rules.some((r) => r.tool === 'mcp__notes__*'))
    await q.policies.savePolicy({
      policy: { defaultAction: 'ask', rules: [{ tool: 'mcp__notes__*', action: 'ask' }] } as never,
      expectedVersion: version,
      createdBy: 'restart-test',
    });
  const mcp = new McpCatalog({
    servers: [{ name: 'notes', config: { type: 'http', url: upstreamUrl } }],
    pins: new DbPinStore(q.mcp),
    log: () => undefined,
  });
  await mcp.start();
  const runs = new RunManager({
    q,
    broker: new DurableRelayBroker(new DbRelayStore(q.relays, { quorum: q.quorum })),
    grants: new DbGrantStore(q.grants),
    model: createOfflineModel(),
    modelName: 'offline',
    resolveModel: (spec) => resolveModel(spec, {}),
    workspace,
    approvalTimeoutS: 600,
    mcp,
  });
  return {
    q,
    mcp,
    runs,
    async close() {
      await runs.shutdown();
      await mcp.close();
      await store.close();
    },
  };
}

/** The offline model's line that calls the upstream tool once. */
export const notesCall = (text: string) => `call mcp__notes__notes ${JSON.stringify({ text })}`;
