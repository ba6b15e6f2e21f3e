// The stored policy: the latest version in the database, seeded with the built-in default policy
// on first start. Every save is a new version; a save against a stale version is refused.
import type { Queries } from '../db';
import { compilePolicy, DEFAULT_POLICY, type Policy } from '../policy';

export interface StoredPolicy {
  version: number;
  policy: Policy;
}

export async function loadPolicy(q: Queries): Promise<StoredPolicy> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const latest = await q.policies.getLatestPolicy();
    if (latest) return { version: latest.version, policy: compilePolicy(latest.policy as Policy).policy };
    const seeded = await q.policies.savePolicy({ policy: compilePolicy(DEFAULT_POLICY).policy, expectedVersion: 0, createdBy: 'system', note: 'Built-in default policy' });
    if (seeded.ok) return { version: seeded.version.version, policy: seeded.version.policy as Policy };
    // Another process seeded it first: read theirs.
  }
  throw new Error('Could not load or seed the policy');
}
