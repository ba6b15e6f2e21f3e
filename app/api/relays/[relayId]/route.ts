// GET /api/relays/:relayId: one relay for its approval page, pending or decided (by whom, when).
// 404 for an unknown relay or an invisible run, 403 for one the caller may not decide.
import { handle } from '@/lib/server/http/handler';
import { inboxRelay } from '@/lib/server/approvals/inbox';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ relayId: string }>('relays:decide:own', async (_request, { relayId }, rt, me) =>
  Response.json(await inboxRelay(rt.q, me, relayId)),
);
