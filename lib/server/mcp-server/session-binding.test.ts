// What an MCP session is bound to (endpoint.ts), as a `user` token's client would probe it: a
// session id to the token that opened it, not only to its user; an elicitation answer to the
// session it was asked in (another session of the same user and token decides nothing).
import { describe, expect, it } from 'vitest';
import { handleMcpPost } from './endpoint';
import { alice, setup } from './test-support/harness';

const post = (body: unknown, sessionId: string) =>
  new Request('http://gatehouse.test/api/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify(body),
  });

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** Reads a response stream's SSE messages until `found` takes one (whole events arrive in one chunk). */
async function nextMessage(reader: Reader, found: (message: Record<string, unknown>) => boolean) {
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the stream ended first');
    for (const line of decoder.decode(value, { stream: true }).split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const message = JSON.parse(line.slice(6)) as Record<string, unknown>;
      if (found(message)) return message;
    }
  }
}

describe('/api/mcp session binding: sessions and elicitation answers', () => {
  it("another token of the same user cannot use a session: it is 404, as another user's", async () => {
    const { deps, connect, ran } = setup({ echo: 'allow' });
    const { transport } = await connect();
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } };
    const otherToken = { ...alice, tokenId: 'tok-alice-agent' };
    const response = await handleMcpPost(post(call, transport.sessionId!), call, otherToken, deps);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32001 } });
    expect(ran).toEqual([]);
  });

  it('an elicitation answer sent on another session of the same user and token decides nothing', async () => {
    const { deps, connect, ran, answers } = setup({ shout: 'ask' });
    // Session A can confirm; its confirmation is read off the raw stream, never answered by the client.
    const a = await connect({ elicit: () => new Promise(() => {}) });
    const b = await connect();
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'shout', arguments: { text: 'go' } } };
    const pending = await handleMcpPost(post(call, a.transport.sessionId!), call, alice, deps);
    const reader = pending.body!.getReader();
    const elicit = await nextMessage(reader, (m) => m.method === 'elicitation/create');
    const accept = { jsonrpc: '2.0', id: elicit.id, result: { action: 'accept' } };

    const fromB = await handleMcpPost(post(accept, b.transport.sessionId!), accept, alice, deps);
    expect(fromB.status).toBe(202);
    expect(answers).toEqual([]);
    expect(ran).toEqual([]);

    // The same answer on the session that was asked decides it, and the call runs once.
    const fromA = await handleMcpPost(post(accept, a.transport.sessionId!), accept, alice, deps);
    expect(fromA.status).toBe(202);
    expect(answers).toEqual([{ relayId: 'relay-1', approved: true, accepted: true }]);
    const result = await nextMessage(reader, (m) => m.id === 9);
    expect(result).toMatchObject({ result: { content: [{ text: 'shout ran with go' }] } });
    expect(ran).toEqual(['shout:go']);
  });
});
