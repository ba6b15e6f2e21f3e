// A RunManager over a test store (PGlite or PostgreSQL, see describeStores), in a temporary
// workspace, and a helper that follows a run's stored events until `done`.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createOfflineModel, resolveModel } from '../../agent';
import type { Queries } from '../../db';
import { DurableRelayBroker } from '../../relay';
import { DbGrantStore } from '../stores/grant-store';
import { DbRelayStore } from '../stores/relay-store';
import type { LoggedEvent } from '../../contract';
import { RunManager, type RunManagerOptions } from '../runs/run-manager';

/** A fresh workspace directory per test; call at a test file's top level. */
export function useTempWorkspace(prefix: string): () => string {
  let workspace = '';
  beforeEach(async () => {
    workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  });
  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true });
  });
  return () => workspace;
}

export function testRunManager(q: Queries, workspace: string, overrides: Partial<RunManagerOptions> = {}): RunManager {
  const relayStore = new DbRelayStore(q.relays, { quorum: q.quorum });
  return new RunManager({
    q,
    broker: new DurableRelayBroker(relayStore),
    grants: new DbGrantStore(q.grants),
    model: createOfflineModel(),
    modelName: 'offline',
    resolveModel: (spec) => resolveModel(spec, {}),
    workspace,
    approvalTimeoutS: 60,
    ...overrides,
  });
}

/** Follows a run until `done`, calling `onEvent` for each stored event; resolves with all of them. */
export function followRun(
  m: RunManager,
  runId: string,
  afterSeq = 0,
  onEvent: (e: LoggedEvent) => void | Promise<void> = () => undefined,
): Promise<LoggedEvent[]> {
  return new Promise<LoggedEvent[]>((resolve, reject) => {
    const seen: LoggedEvent[] = [];
    void m
      .subscribe(runId, afterSeq, (event) => {
        seen.push(event);
        Promise.resolve(onEvent(event)).catch(reject);
        if (event.type === 'done') resolve(seen);
      })
      .catch(reject);
  });
}

/** The events of one type, typed as such. */
export function ofType<T extends LoggedEvent['type']>(
  events: readonly LoggedEvent[],
  type: T,
): Extract<LoggedEvent, { type: T }>[] {
  return events.filter((e): e is Extract<LoggedEvent, { type: T }> => e.type === type);
}
