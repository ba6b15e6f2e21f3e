// GET /api/relays/stream: an event stream that says `changed` whenever a relay was raised or
// settled (here or on another instance); the inbox then re-reads GET /api/relays. It carries no
// relay data, and it ends when the caller's credential stops being valid. It holds one of the
// caller's stream slots while open (stream-slots.ts): past their cap, a 429 `too_many_streams`.
import { handle } from '@/lib/server/http/handler';
import { sseResponse } from '@/lib/server/http/sse';
import { userStreamGuard } from '@/lib/server/http/stream-guard';
import { streamSlots } from '@/lib/server/http/stream-slots';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('relays:decide:own', async (request, _params, rt, user) => {
  const guard = userStreamGuard({ rt, headers: request.headers, user });
  return sseResponse(
    request.signal,
    (send) => rt.relaySignal.subscribe(() => send({ event: 'changed', data: {} })),
    rt.config.sseHeartbeatMs,
    guard,
    undefined,
    // Taken last, so nothing between here and the stream that releases it can throw.
    streamSlots().take(user.id, rt.config.maxStreamsPerUser),
  );
});
