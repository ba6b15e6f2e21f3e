// A run started through POST /api/chat as a client starts one, for route tests: its id, read from
// the stream's `connected` event, and the first relay it raised once there is one.
import { expect } from 'vitest';
import type { RelayRequest } from '@/lib/contract';
import { apiRequest, noParams, type RouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as chat } from './route';

/** Starts a run with `token`; resolves with its run id and its first pending relay (10 s at most). */
export async function startAndAsk(
  server: RouteRuntime,
  token: string,
  body: Record<string, unknown>,
): Promise<{ runId: string; relay: RelayRequest }> {
  const response = await chat(apiRequest('POST', '/api/chat', { token, json: body }), noParams);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  let found: RegExpExecArray | null = null;
  while (!found) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`no connected event in: ${text}`);
    text += new TextDecoder().decode(value);
    found = /"runId":"([^"]+)"/.exec(text);
  }
  const runId = found[1]!;
  await reader.cancel();
  const q = server.rt().q;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pending = await q.relays.listPendingRelays({ runId });
    if (pending[0]) return { runId, relay: pending[0].request as RelayRequest };
    if (Date.now() > deadline) throw new Error('no relay raised');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
