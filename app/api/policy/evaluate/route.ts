// POST /api/policy/evaluate: the Decision for a call, for the rule editor's "test a call".
import { evaluate, importPolicy, riskOf } from '@/lib/policy';
import { readJson } from '@/lib/server/body';
import { handle } from '@/lib/server/handler';
import { loadPolicy } from '@/lib/server/policy-store';
import { EvaluateRequestSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('policy:read', async (request, _params, rt) => {
  const body = await readJson(request, EvaluateRequestSchema, rt.config.maxBodyBytes);
  const policy = body.policy === undefined ? (await loadPolicy(rt.q)).policy : importPolicy(body.policy);
  const decision = evaluate(policy, body.call, { mode: body.mode, workspaceRoot: rt.config.workspace, risk: riskOf(body.call.tool) });
  return Response.json({ decision });
});
