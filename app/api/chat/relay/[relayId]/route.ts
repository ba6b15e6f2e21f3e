// POST /api/chat/relay/:relayId: decides a pending approval exactly once. 404 for an unknown
// relay or another session's; 409 with the recorded decision when it was already decided.
import { readJson } from '@/lib/server/body';
import { handle } from '@/lib/server/handler';
import { RelayDecisionSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ relayId: string }>(async (request, { relayId }, rt) => {
  const body = await readJson(request, RelayDecisionSchema, rt.config.maxBodyBytes);
  await rt.runs.resolve(relayId, { sessionId: body.sessionId, response: body.response, decidedBy: 'user' });
  return Response.json({ success: true });
});
