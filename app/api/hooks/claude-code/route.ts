// POST /api/hooks/claude-code: Claude Code's `http` hook. The handler is in
// lib/server/hooks/claude-code-route.ts, shared with the custom server's fast path; this file
// serves it when the fast path is not installed (`next start`, or the runtime failed at boot).
import { claudeCodeHook } from '@/lib/server/hooks/claude-code-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = claudeCodeHook;
