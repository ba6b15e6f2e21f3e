// GET /api/policy: the current policy and its version (also as the ETag).
// PUT /api/policy: replaces the whole policy. `If-Match: "<version>"` is required, so two admins
// cannot overwrite each other silently: a stale version gets 412 with the current one.
import { handle } from '@/lib/server/http/handler';
import { readJson } from '@/lib/server/http/body';
import { savePolicyVersion } from '@/lib/server/stores/policy-store';
import { loadPolicy } from '@/lib/server/stores/policy-store';
import { PolicyBodySchema, expectedVersion } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('policy:read', async (_request, _params, rt) => {
  const { version, policy } = await loadPolicy(rt.q);
  return Response.json({ version, policy }, { headers: { ETag: `"${version}"` } });
});

export const PUT = handle('policy:edit', async (request, _params, rt, user) => {
  const expected = expectedVersion(request);
  const body = await readJson(request, PolicyBodySchema, rt.config.maxBodyBytes);
  const saved = await savePolicyVersion(rt.q, {
    policy: body.policy ?? body,
    expectedVersion: expected,
    createdBy: user.username,
    note: body.note,
    workspaceRoot: rt.config.workspace,
  });
  return Response.json(saved, { headers: { ETag: `"${saved.version}"` } });
});
