// POST /api/hooks/gemini-cli: Gemini CLI's BeforeTool hook (through its hook command). The handler
// is in lib/server/hooks/gemini-cli-route.ts, shared with the custom server's fast path; this file
// serves it when the fast path is not installed (`next start`, or the runtime failed at boot).
import { geminiCliHook } from '@/lib/server/hooks/gemini-cli-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = geminiCliHook;
