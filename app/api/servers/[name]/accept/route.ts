// POST /api/servers/:name/accept { tool, digest }: accepts the reviewed changed definition of a
// tool (the digest shown beside old and new); audited. 409 when that change is not pending.
import { z } from 'zod';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { serverStoreContext } from '@/lib/server/mcp/context';
import { acceptDefinition } from '@/lib/server/mcp/server-store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const Body = z.object({
  tool: z.string().min(1),
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 hex digest'),
});

export const POST = handle<{ name: string }>('servers:manage', async (request, { name }, rt, user) => {
  const body = await readJson(request, Body, rt.config.maxBodyBytes);
  await acceptDefinition(serverStoreContext(rt), { server: name, ...body, by: user.username });
  return Response.json({ accepted: true });
});
