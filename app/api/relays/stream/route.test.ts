// GET /api/relays/stream: a signed-in caller hears `changed` when a relay is raised or settled, with
// no relay data in it; nobody else gets a stream.
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { GET } from './route';

const server = withRouteRuntime('gatehouse-relay-stream-');

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value);
  }
  return seen;
}

describe('GET /api/relays/stream', () => {
  it('says `changed` (and nothing about the relay) when a relay is raised', async () => {
    const controller = new AbortController();
    const response = await GET(
      new Request(apiRequest('GET', '/api/relays/stream'), { signal: controller.signal }),
      noParams,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    await readUntil(reader, ': connected');
    const { external } = server.rt();
    // A call that asks under the default policy raises a relay; the stream hears of it.
    const asked = external.decide(
      { owner: 'someone', source: 'hook', agent: 'claude-code', externalId: 'stream-1', title: '/w' },
      { tool: 'bash', params: { command: 'touch secret-name' }, workspace: '/w' },
      { signal: controller.signal },
    );
    const seen = await readUntil(reader, 'event: changed');
    expect(seen).toContain('data: {}');
    expect(seen).not.toContain('secret-name');
    controller.abort();
    await asked;
  });

  it('is open to every role (each then reads only the relays it may decide)', async () => {
    for (const role of ['user', 'approver'] as const) {
      const controller = new AbortController();
      const token = await server.tokenFor(role);
      const response = await GET(
        new Request(apiRequest('GET', '/api/relays/stream', { token }), { signal: controller.signal }),
        noParams,
      );
      expect(response.status).toBe(200);
      controller.abort();
    }
  });

  it('refuses an anonymous caller', async () => {
    const response = await GET(new Request('http://127.0.0.1:3000/api/relays/stream'), noParams);
    expect(response.status).toBe(401);
  });
});
