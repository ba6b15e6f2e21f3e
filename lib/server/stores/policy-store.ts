// The stored policy: the latest version in the database, seeded with the built-in default policy
// on first start. Every save is a new version; a save against a stale version is refused.
import { ROLES } from '../../contract';
import type { Queries } from '../../db';
import {
  compilePolicy,
  DEFAULT_POLICY,
  describeTestResult,
  importPolicy,
  runPolicyTests,
  salvagePolicy,
  type Policy,
} from '../../policy';
import { AppError } from '../http/errors';

export interface StoredPolicy {
  version: number;
  policy: Policy;
}

export async function loadPolicy(q: Queries): Promise<StoredPolicy> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const latest = await q.policies.getLatestPolicy();
    if (latest) return { version: latest.version, policy: usable(latest.version, latest.policy) };
    const seeded = await q.policies.savePolicy({
      policy: compilePolicy(DEFAULT_POLICY).policy,
      expectedVersion: 0,
      createdBy: 'system',
      note: 'Built-in default policy',
    });
    if (seeded.ok) return { version: seeded.version.version, policy: seeded.version.policy as Policy };
    // Another process seeded it first: read theirs.
  }
  throw new Error('Could not load or seed the policy');
}

const reported = new Set<number>();

/**
 * A stored version that no longer validates (saved under older rules of validation) is used
 * salvaged, never more permissive (lib/policy/salvage.ts), and reported once per version, so the
 * server keeps starting runs and an admin can fix it on the rules page.
 */
function usable(version: number, stored: unknown): Policy {
  const { policy, issues } = salvagePolicy(stored);
  if (issues.length > 0 && !reported.has(version)) {
    reported.add(version);
    console.error(
      `[gatehouse] The stored policy (version ${version}) does not validate; its invalid rules are replaced (deny and ask rules widened to their whole tool, allow rules disabled) until an admin saves a valid one: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
  }
  return policy;
}

/**
 * Saves a new version if `expectedVersion` is still the latest (race-safe in the database).
 * Accepts any format importPolicy reads; an invalid document throws PolicyValidationError (400),
 * one whose tests fail (run with paths resolved against `workspaceRoot`) a 422 naming each.
 */
export async function savePolicyVersion(
  q: Queries,
  input: { policy: unknown; expectedVersion: number; createdBy: string; note?: string; workspaceRoot?: string },
): Promise<StoredPolicy> {
  const policy = importPolicy(input.policy);
  assertApprovalRoles(policy);
  assertPolicyTestsPass(policy, input.workspaceRoot);
  const saved = await q.policies.savePolicy({
    policy,
    expectedVersion: input.expectedVersion,
    createdBy: input.createdBy,
    note: input.note,
  });
  if (!saved.ok) {
    throw new AppError(
      'conflict:policy_version',
      412,
      `The policy changed since version ${input.expectedVersion}: it is now version ${saved.currentVersion}. Reload and apply your edit again.`,
      { currentVersion: saved.currentVersion },
    );
  }
  await q.audit.recordAudit({
    kind: 'policy_edit',
    decidedBy: input.createdBy,
    details: { version: saved.version.version, note: input.note, rules: policy.rules.length },
  });
  return { version: saved.version.version, policy };
}

/** Throws 422 when a test of the policy fails: each failing test by its index, name, call, expected and got. */
export function assertPolicyTestsPass(policy: Policy, workspaceRoot?: string): void {
  if (!policy.tests?.length) return;
  const report = runPolicyTests(policy, undefined, workspaceRoot ? { workspaceRoot } : {});
  if (report.failed === 0) return;
  const failures = report.results.filter((r) => !r.pass);
  const fields = failures.map((r) => ({ path: `tests.${r.index}`, message: describeTestResult(r) }));
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : '';
  throw new AppError(
    'unprocessable:policy_tests',
    422,
    `The policy was not saved: ${report.failed} of ${report.results.length} tests fail: ${fields[0]!.message}${more}`,
    { fields, failures },
  );
}

/** 400 naming each `approvals.roles` entry that is not a role (lib/policy takes any name; the roles are the server's). */
export function assertApprovalRoles(policy: Policy): void {
  const known: readonly string[] = ROLES;
  const fields = policy.rules.flatMap((rule, i) =>
    (rule.approvals?.roles ?? []).flatMap((role, j) =>
      known.includes(role)
        ? []
        : [{ path: `rules.${i}.approvals.roles.${j}`, message: `no role "${role}"; roles are ${known.join(', ')}` }],
    ),
  );
  if (fields.length > 0)
    throw new AppError('bad_request:policy', 400, `Not a role: ${fields[0]!.path} ${fields[0]!.message}`, { fields });
}
