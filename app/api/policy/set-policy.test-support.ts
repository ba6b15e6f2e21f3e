// What route tests share to store a policy: through PUT /api/policy, as an admin, as a person would.
import { expect } from 'vitest';
import { PUT as putPolicy, GET as getPolicy } from '@/app/api/policy/route';
import { apiRequest, noParams } from '@/lib/server/test-support/route-runtime';

/** Stores a policy of these rules (through PUT /api/policy, as an admin). */
export async function setPolicy(rules: unknown[], defaultAction: 'ask' | 'deny' = 'ask'): Promise<void> {
  const { version } = await (await getPolicy(apiRequest('GET', '/api/policy'), noParams)).json();
  const response = await putPolicy(
    apiRequest('PUT', '/api/policy', {
      json: { policy: { defaultAction, rules } },
      headers: { 'if-match': `"${version}"` },
    }),
    noParams,
  );
  expect(response.status).toBe(200);
}
