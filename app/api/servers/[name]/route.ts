// PUT /api/servers/:name: adds (201) or replaces (200) a stored server; the body is one entry of
// `mcpServers`. A secret sent back as "********" keeps its stored value. 409 for a file server, and
// for a "********" whose stored value cannot be read since GATEHOUSE_SECRET changed (retype it).
// A bad name, header or env entry is a 400 naming the field, never repeating the value.
// `If-None-Match: *` only adds (412 naming the field when the name is taken); `If-Match: *` only
// replaces (404 when the server is gone), so neither form silently does the other's job.
// DELETE /api/servers/:name: removes a stored server (204); 404 unknown, 409 for a file server.
import { z } from 'zod';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { serverStoreContext } from '@/lib/server/mcp/context';
import { deleteStoredServer, putStoredServer, type PutExpectation } from '@/lib/server/mcp/server-store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The entry is checked field by field by the server-store (errors name the field).
const Body = z.record(z.string(), z.unknown());

function expectation(request: Request): PutExpectation | undefined {
  if (request.headers.get('if-none-match')?.trim() === '*') return 'new';
  if (request.headers.get('if-match')?.trim() === '*') return 'existing';
  return undefined;
}

export const PUT = handle<{ name: string }>('servers:manage', async (request, { name }, rt, user) => {
  const body = await readJson(request, Body, rt.config.maxBodyBytes);
  const created = await putStoredServer(serverStoreContext(rt), name, body, user.username, expectation(request));
  return Response.json({ name }, { status: created ? 201 : 200 });
});

export const DELETE = handle<{ name: string }>('servers:manage', async (_request, { name }, rt, user) => {
  await deleteStoredServer(serverStoreContext(rt), name, user.username);
  return new Response(null, { status: 204 });
});
