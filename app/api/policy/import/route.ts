// POST /api/policy/import: saves a policy written in any format importPolicy reads (canonical,
// the seeds' { allowlist, deny, allowOnce }, snake_case rules, or Claude Code's settings.json) as a
// new version. If-Match as for PUT /api/policy; `?dryRun=1` only converts and returns it;
// `?agent=claude-code` gives the rules converted from Claude Code's settings that agent.
import { z } from 'zod';
import { importDraftPolicy, importPolicy } from '@/lib/policy';
import { readJson } from '@/lib/server/http/body';
import { assertCan, can } from '@/lib/auth';
import { handle, searchParams } from '@/lib/server/http/handler';
import { savePolicyVersion } from '@/lib/server/stores/policy-store';
import { expectedVersion } from '../schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({
  dryRun: z.string().optional(),
  agent: z.string().trim().min(1).max(200).optional(),
});

// A dry run only converts (anyone who may read the policy); saving needs policy:edit. Compiling an
// arbitrary document costs what its size costs, so a caller who may not edit the policy is held to
// the per-run draft limits first (as a draft sent to POST /api/policy/evaluate is refused them).
export const POST = handle('policy:read', async (request, _params, rt, user) => {
  const query = searchParams(request, QuerySchema);
  const dryRun = query.dryRun === '1';
  if (!dryRun) assertCan(user, 'policy:edit');
  const expected = dryRun ? 0 : expectedVersion(request);
  const doc = await readJson(request, z.unknown(), rt.config.maxBodyBytes);
  const options = query.agent ? { agent: query.agent } : {};
  if (dryRun && !can(user, 'policy:edit')) importDraftPolicy(doc);
  if (dryRun) return Response.json({ policy: importPolicy(doc, options) });
  const saved = await savePolicyVersion(rt.q, {
    policy: query.agent ? importPolicy(doc, options) : doc,
    expectedVersion: expected,
    createdBy: user.username,
    note: 'Imported',
    workspaceRoot: rt.config.workspace,
  });
  return Response.json(saved, { headers: { ETag: `"${saved.version}"` } });
});
