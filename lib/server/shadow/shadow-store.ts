// Setting, clearing and promoting the shadow policy. The database row is the truth; the monitor
// (this process's) follows at once, and other instances follow the `gatehouse_shadow` notice.
import { createQueries, type Database, type PolicyShadowRow, type Queries } from '../../db';
import { importPolicy } from '../../policy';
import { AppError } from '../http/errors';
import { loadPolicy, savePolicyVersion, type StoredPolicy } from '../stores/policy-store';
import type { ShadowMonitor } from './monitor';

export interface ShadowContext {
  q: Queries;
  db: Database;
  monitor: ShadowMonitor;
  /** Tells the other instances the shadow changed (several instances). */
  announce?: () => void;
}

/** Brings this process's monitor in line with the stored shadow. */
export async function refreshShadow(q: Queries, monitor: ShadowMonitor): Promise<void> {
  const row = await q.shadow.getShadow();
  monitor.set(row && { id: row.id, policy: row.policy });
}

/**
 * Sets the shadow from a policy in any format importPolicy reads (an invalid one throws
 * PolicyValidationError: 400 with the fields). It replaces the previous shadow and its differences.
 */
export async function setShadow(
  ctx: ShadowContext,
  input: { policy: unknown; createdBy: string; note?: string },
): Promise<PolicyShadowRow> {
  const policy = importPolicy(input.policy);
  const { version } = await loadPolicy(ctx.q);
  const row = await ctx.q.shadow.setShadow({
    policy,
    baseVersion: version,
    createdBy: input.createdBy,
    note: input.note,
  });
  await flushAndFollow(ctx, row);
  return row;
}

/** The shadow (only if it is the one `id` names, when given); 404 otherwise. */
export async function getShadow(q: Queries, id?: string): Promise<PolicyShadowRow> {
  const row = await q.shadow.getShadow();
  if (!row || (id !== undefined && row.id !== id)) throw notFound(id);
  return row;
}

/** Clears the shadow (only if it is the one `id` names, so a clear never removes a shadow someone set since). */
export async function clearShadow(ctx: ShadowContext, id?: string): Promise<void> {
  if (!(await ctx.q.shadow.clearShadow({ id }))) throw notFound(id);
  await flushAndFollow(ctx, undefined);
}

function notFound(id: string | undefined): AppError {
  return new AppError(
    'not_found:shadow',
    404,
    id === undefined ? 'No shadow policy is set' : 'That shadow policy is no longer set',
  );
}

/**
 * The shadow becomes the live policy in one step: a new version (audited as a policy edit) and the
 * shadow cleared, in one transaction. `expectedVersion` is the live version the admin saw (412 when
 * it changed, as for PUT /api/policy); `id`, the shadow they reviewed (404 when another was set
 * since). Its tests are judged as a save judges them, paths against `workspaceRoot`.
 */
export async function promoteShadow(
  ctx: ShadowContext,
  input: { expectedVersion: number; promotedBy: string; id?: string; workspaceRoot?: string },
): Promise<StoredPolicy> {
  const saved = await ctx.db.transaction(async (tx) => {
    const q = createQueries(tx);
    const shadow = await getShadow(q, input.id);
    const note = `Promoted from the shadow set by ${shadow.createdBy} against version ${shadow.baseVersion}`;
    const stored = await savePolicyVersion(q, {
      policy: shadow.policy,
      expectedVersion: input.expectedVersion,
      createdBy: input.promotedBy,
      note,
      workspaceRoot: input.workspaceRoot,
    });
    await q.shadow.clearShadow({ id: shadow.id });
    return stored;
  });
  await flushAndFollow(ctx, undefined);
  return saved;
}

async function flushAndFollow(ctx: ShadowContext, row: PolicyShadowRow | undefined): Promise<void> {
  // What the old shadow still held is written first (its row may be gone: then it is discarded).
  await ctx.monitor.flush();
  ctx.monitor.set(row && { id: row.id, policy: row.policy });
  ctx.announce?.();
}
