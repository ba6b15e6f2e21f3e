// POST /api/chat/relay/:relayId: decides a pending approval exactly once. 404 for an unknown
// relay or another session's; 409 with the recorded decision when it was already decided.
import { readJson } from '@/lib/server/body';
import { toResponse } from '@/lib/server/errors';
import { getRuntime } from '@/lib/server/runtime';
import { RelayDecisionSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, context: { params: Promise<{ relayId: string }> }): Promise<Response> {
  try {
    const { relayId } = await context.params;
    const rt = await getRuntime();
    const body = await readJson(request, RelayDecisionSchema, rt.config.maxBodyBytes);
    await rt.runs.resolve(relayId, { sessionId: body.sessionId, response: body.response, decidedBy: 'user' });
    return Response.json({ success: true });
  } catch (error) {
    return toResponse(error);
  }
}
