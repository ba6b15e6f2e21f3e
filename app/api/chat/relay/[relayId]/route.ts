// POST /api/chat/relay/:relayId: a human's decision on a pending approval. The handler is in
// lib/server/routes/decide-relay.ts, shared with the custom server's fast path (scripts/server.mjs,
// lib/server/routes/fast-routes.ts), which answers this route without Next's router; this file serves it
// when the fast path is not installed (`next start`, or the runtime failed at boot).
import { decideRelay } from '@/lib/server/routes/decide-relay';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = decideRelay;
