// GET /api/relays/stream: an event stream that says `changed` whenever a relay was raised or
// settled (here or on another instance); the inbox then re-reads GET /api/relays. It carries no
// relay data, and it ends when the caller's credential stops being valid.
import { handle } from '@/lib/server/http/handler';
import { sseResponse } from '@/lib/server/http/sse';
import { userStreamGuard } from '@/lib/server/http/stream-guard';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('relays:decide:own', async (request, _params, rt, user) =>
  sseResponse(
    request.signal,
    (send) => rt.relaySignal.subscribe(() => send({ event: 'changed', data: {} })),
    rt.config.sseHeartbeatMs,
    userStreamGuard({ rt, headers: request.headers, user }),
  ),
);
