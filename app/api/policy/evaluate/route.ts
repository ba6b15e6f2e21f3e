// POST /api/policy/evaluate: the Decision for a call, for the rule editor's "test a call".
// Against the stored policy for anyone who may read it (the answer names its version); against a
// draft policy only for those who may edit the policy, since compiling an arbitrary draft costs
// what its size costs and the stored policy's size is the admins' to choose.
import { can } from '@/lib/auth';
import { compilePolicy, evaluate, importPolicy, riskOf, type CompiledPolicy } from '@/lib/policy';
import { readJson } from '@/lib/server/http/body';
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';
import { loadPolicy, type StoredPolicy } from '@/lib/server/stores/policy-store';
import { EvaluateRequestSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('policy:read', async (request, _params, rt, user) => {
  const body = await readJson(request, EvaluateRequestSchema, rt.config.maxBodyBytes);
  const ctx = { mode: body.mode, workspaceRoot: rt.config.workspace, risk: riskOf(body.call.tool) };
  if (body.policy !== undefined) {
    if (!can(user, 'policy:edit')) {
      throw new AppError(
        'forbidden:policy:edit',
        403,
        'Only admins may test a call against a draft policy; leave out `policy` to test against the stored one',
        {
          fields: [{ path: 'policy', message: 'only admins may send a draft policy' }],
        },
      );
    }
    return Response.json({ decision: evaluate(importPolicy(body.policy), body.call, ctx) });
  }
  const stored = await loadPolicy(rt.q);
  return Response.json({ decision: evaluate(compiledStored(stored), body.call, ctx), version: stored.version });
});

// The stored policy compiled once per version, not once per request.
let cached: { version: number; compiled: CompiledPolicy } | undefined;

function compiledStored(stored: StoredPolicy): CompiledPolicy {
  if (cached?.version !== stored.version) cached = { version: stored.version, compiled: compilePolicy(stored.policy) };
  return cached.compiled;
}
