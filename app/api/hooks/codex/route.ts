// POST /api/hooks/codex: Codex CLI's PreToolUse hook (through its hook command). The handler is in
// lib/server/hooks/codex-route.ts, shared with the custom server's fast path; this file serves it
// when the fast path is not installed (`next start`, or the runtime failed at boot).
import { codexHook } from '@/lib/server/hooks/codex-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = codexHook;
