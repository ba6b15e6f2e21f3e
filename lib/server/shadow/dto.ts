// Rows of the shadow tables as the API answers them (lib/contract/shadow.ts): dates as ISO strings.
import type { Shadow, ShadowDiff } from '../../contract';
import type { PolicyShadowDiffRow, PolicyShadowRow } from '../../db';

export function shadowDto(row: PolicyShadowRow): Shadow {
  return {
    id: row.id,
    policy: row.policy,
    baseVersion: row.baseVersion,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    note: row.note,
  };
}

export function diffDto(row: PolicyShadowDiffRow): ShadowDiff {
  // The stored decisions and actions were written from Decisions (record.ts).
  const { shadowId: _shadowId, ...rest } = row;
  return { ...rest, at: row.at.toISOString() } as unknown as ShadowDiff;
}
