// GET /api/agents: the agent profiles and modes a chat can pick, and the server's model.
import { handle } from '@/lib/server/http/handler';
import { MODES, MODE_LABELS, type AgentsResponse } from '@/lib/contract';
import { CHAT_PROFILES, DEFAULT_PROFILE } from '@/lib/server/agents/agent-profiles';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('signed-in', async (_request, _params, rt) =>
  Response.json({
    model: rt.config.model,
    defaultAgent: DEFAULT_PROFILE,
    agents: CHAT_PROFILES.map(({ name, description, tools }) => ({ name, description, tools })),
    modes: MODES.map((value) => ({ value, label: MODE_LABELS[value] })),
  } satisfies AgentsResponse),
);
