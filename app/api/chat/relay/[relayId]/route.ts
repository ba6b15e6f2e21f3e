// POST /api/chat/relay/:relayId: decides a pending approval exactly once. 404 for an unknown
// relay or another session's; 403 for a run the caller may not act on (the relay stays pending);
// 409 with the recorded decision when it was already decided.
import { canDecideRelay, ForbiddenError } from '@/lib/auth';
import { readJson } from '@/lib/server/body';
import { AppError } from '@/lib/server/errors';
import { handle, signedIn } from '@/lib/server/handler';
import { RelayDecisionSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ relayId: string }>('relays:decide:own', async (request, { relayId }, rt, user) => {
  const me = signedIn(user);
  const body = await readJson(request, RelayDecisionSchema, rt.config.maxBodyBytes);
  const relay = await rt.runs.relayAccess(relayId);
  if (!relay || relay.sessionId !== body.sessionId) throw new AppError('not_found:relay', 404, 'No such relay in this session');
  // 403, not the 404 of an invisible run (docs/AUTH.md): whoever names the relay and its session
  // knows it exists. Checked before resolving, so a refused decision leaves the relay pending.
  if (!canDecideRelay(me, relay)) throw new ForbiddenError('relays:decide:any', 'Only the run’s owner, an approver or an admin may decide this relay');
  await rt.runs.decideChecked(relayId, body.response, me.username);
  return Response.json({ success: true });
});
