// Request schema of POST /api/chat/relay/:relayId: a human's answer to a pending approval. Defined
// beside the handler in lib/server/routes/decide-relay.ts (the fast path serves it too).
export { RelayDecisionSchema } from '@/lib/server/routes/decide-relay';
