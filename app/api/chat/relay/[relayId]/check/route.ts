// POST /api/chat/relay/:relayId/check: the approval dialog's live re-check of edited Always Allow
// rules -> `{ covers, reason? }`, the verdict the decision itself would meet. Only those who may
// edit the rules (grants:manage) ask it; 404 for an unknown relay or another session's, 409 once decided.
import { readJson } from '@/lib/server/http/body';
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';
import { checkAlwaysAllowRules } from '@/lib/server/runs/always-allow-check';
import { CheckAlwaysAllowSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ relayId: string }>('grants:manage', async (request, { relayId }, rt) => {
  const body = await readJson(request, CheckAlwaysAllowSchema, rt.config.maxBodyBytes);
  const relay = await rt.runs.relayAccess(relayId);
  if (!relay || relay.sessionId !== body.sessionId)
    throw new AppError('not_found:relay', 404, 'No such relay in this session');
  return Response.json(await checkAlwaysAllowRules(rt.q, relayId, body.rule, rt.config.workspace));
});
