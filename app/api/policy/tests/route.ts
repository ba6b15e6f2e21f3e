// POST /api/policy/tests: runs the tests a policy carries without saving it, for the rules page's
// Tests panel. Admins only, like a draft in POST /api/policy/evaluate: compiling an arbitrary
// policy costs what its size costs. The answer is the report a save would be judged by.
import { importPolicy, runPolicyTests } from '@/lib/policy';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { RunTestsRequestSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('policy:edit', async (request, _params, rt) => {
  const body = await readJson(request, RunTestsRequestSchema, rt.config.maxBodyBytes);
  const policy = importPolicy(body.policy);
  return Response.json(runPolicyTests(policy, undefined, { workspaceRoot: rt.config.workspace }));
});
