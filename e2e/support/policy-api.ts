// Policy changes over the API for the rule editor specs. Specs share one server, so each change
// adds or removes only rules marked with the spec's unique marker, and a 412 caused by another
// worker's save is retried on the fresh version instead of failing the spec.
import { expect, type APIRequestContext } from '@playwright/test';
import type { Policy, Rule } from '../../lib/policy/types';

export interface StoredPolicy {
  version: number;
  policy: Policy;
}

/** Unique enough to tell one test's rules, sessions and commands from every other's. */
export function marker(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

export async function getPolicy(request: APIRequestContext): Promise<StoredPolicy> {
  const response = await request.get('/api/policy');
  expect(response.status()).toBe(200);
  return (await response.json()) as StoredPolicy;
}

/** Applies `change` to the latest policy and saves it with If-Match, retrying lost races. */
export async function updatePolicy(
  request: APIRequestContext,
  change: (policy: Policy) => Policy,
  note = 'e2e',
): Promise<StoredPolicy> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { version, policy } = await getPolicy(request);
    const response = await request.put('/api/policy', {
      headers: { 'If-Match': `"${version}"` },
      data: { policy: change(policy), note },
    });
    if (response.status() === 412) continue;
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()) as StoredPolicy;
  }
  throw new Error('the policy kept changing under the spec');
}

export const addRules = (request: APIRequestContext, ...rules: Rule[]) =>
  updatePolicy(request, (p) => ({ ...p, rules: [...p.rules, ...rules] }), 'e2e: add rules');

/** Removes every rule whose id contains `mark`; saves nothing when there is none. */
export async function removeRules(request: APIRequestContext, mark: string): Promise<void> {
  const { policy } = await getPolicy(request);
  if (!policy.rules.some((r) => r.id?.includes(mark))) return;
  await updatePolicy(request, (p) => ({ ...p, rules: p.rules.filter((r) => !r.id?.includes(mark)) }), 'e2e: clean up');
}

export const ruleIds = (policy: Policy) => policy.rules.map((r) => r.id);
