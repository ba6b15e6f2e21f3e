// POST /api/chat/relay/:relayId/edit-check: the approval dialog's live check of an edited call ->
// `{ ok: true, params, preview? }` or `{ ok: false, message, fields?, decision? }`, what the
// decision itself would meet. Whoever may decide the relay asks it; 404 for an unknown relay or
// another session's, 409 once decided. Nothing is decided.
import { canDecideRelay, ForbiddenError } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';
import { checkEditedCall } from '@/lib/server/runs/edit-check';
import { EditCheckSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ relayId: string }>('relays:decide:own', async (request, { relayId }, rt, me) => {
  const body = await readJson(request, EditCheckSchema, rt.config.maxBodyBytes);
  const relay = await rt.runs.relayAccess(relayId);
  if (!relay || relay.sessionId !== body.sessionId)
    throw new AppError('not_found:relay', 404, 'No such relay in this session');
  if (!canDecideRelay(me, relay))
    throw new ForbiddenError(
      'relays:decide:any',
      'Only the run’s owner, an approver or an admin may decide this relay',
    );
  return Response.json(await checkEditedCall(rt.q, relayId, body.params, rt.config.workspace));
});
