// The direct answer of a lone tools/list or tools/call (direct.ts): JSON when decided and run at
// once, a stream as soon as the call waits, and the SDK for everything it does not take.
import { describe, expect, it } from 'vitest';
import { answerDirectly } from './direct';
import { handleMcpPost } from './endpoint';
import { alice, setup } from './test-support/harness';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

async function session(rules: Parameters<typeof setup>[0]) {
  const harness = setup(rules);
  const { transport } = await harness.connect({ name: 'direct' });
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    handleMcpPost(
      new Request('http://gatehouse.test/api/mcp', {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': transport.sessionId!, ...headers },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
      body,
      alice,
      harness.deps,
    );
  return { ...harness, post };
}

const call = (id: number, name: string, text = 'hi') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: { text } },
});

describe('/api/mcp: the direct answer', () => {
  it('answers a call decided and run at once as JSON, with the result recorded', async () => {
    const { post, ran, gate } = await session({ echo: 'allow' });
    const response = await post(call(1, 'echo'));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'echo ran with hi' }] },
    });
    expect(ran).toEqual(['echo:hi']);
    expect(gate.results).toEqual([expect.objectContaining({ callId: 'mcp-1', isError: false })]);
  });

  it('answers tools/list as JSON', async () => {
    const { post } = await session({ echo: 'allow' });
    const response = await post({ jsonrpc: '2.0', id: 'l', method: 'tools/list' });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((await response.json()).result.tools.map((t: { name: string }) => t.name)).toEqual(['echo']);
  });

  it('streams a call that waits for a human: the headers leave before the decision', async () => {
    const { post, gate, ran } = await session({ shout: 'ask' });
    const relay = gate.nextRelay();
    const response = await post(call(2, 'shout'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    gate.answer(await relay, { approved: true, by: 'u-admin' });
    const body = await response.text();
    expect(body).toMatch(/^event: message\ndata: \{.*"id":2.*shout ran with hi.*\}\n\n$/);
    expect(ran).toEqual(['shout:hi']);
  });

  it('a client gone before an allowed call ran: nothing runs, and the run records why', async () => {
    const { post, ran, gate } = await session({ echo: 'allow' });
    const gone = new AbortController();
    gone.abort();
    await post(call(3, 'echo'), {}, gone.signal);
    expect(ran).toEqual([]);
    expect(gate.results).toEqual([
      expect.objectContaining({ isError: true, output: expect.stringContaining('Not run') }),
    ]);
  });

  it.each([
    ['an Accept without text/event-stream', { accept: 'application/json' }, 406],
    ['another content type', { 'content-type': 'text/plain' }, 415],
    ['an unknown protocol version', { 'mcp-protocol-version': '1999-01-01' }, 400],
  ])('leaves %s to the SDK, which refuses it as before', async (_name, headers, status) => {
    const { post, ran } = await session({ echo: 'allow' });
    expect((await post(call(4, 'echo'), headers)).status).toBe(status);
    expect(ran).toEqual([]);
  });

  it('leaves a batch and invalid params to the SDK (an SSE answer, a JSON-RPC error)', async () => {
    const { post, ran } = await session({ echo: 'allow' });
    const batch = await post([call(5, 'echo', 'a'), call(6, 'echo', 'b')]);
    expect(batch.headers.get('content-type')).toBe('text/event-stream');
    await batch.text();
    expect(ran.sort()).toEqual(['echo:a', 'echo:b']);
    const invalid = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } });
    expect(await invalid.text()).toMatch(/"id":7,"error":\{"code":-326/);
    expect(ran).toHaveLength(2);
  });
});

describe('answerDirectly', () => {
  it('opens a stream for a call still running after the time limit, and ends it with the result', async () => {
    let finish!: (value: unknown) => void;
    const running = new Promise((resolve) => (finish = resolve));
    const response = await answerDirectly(9, new AbortController().signal, () => running, { streamAfterMs: 1 });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    finish({ content: [] });
    expect(await response.text()).toBe(`event: message\ndata: {"jsonrpc":"2.0","id":9,"result":{"content":[]}}\n\n`);
  });

  it('sends what the call sends first on the stream, then the result', async () => {
    const response = await answerDirectly(10, new AbortController().signal, async (channel) => {
      await channel.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      });
      return { content: [] };
    });
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.map((e) => JSON.parse(e.split('data: ')[1]!).method ?? 'result')).toEqual([
      'notifications/progress',
      'result',
    ]);
  });

  it('turns a failure into a JSON-RPC error, never a 500', async () => {
    const response = await answerDirectly(11, new AbortController().signal, async () => {
      throw new Error('database gone');
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 11,
      error: { code: -32603, message: 'database gone' },
    });
  });

  it('a reader that cancels the stream makes the call not live', async () => {
    let live: (() => boolean) | undefined;
    let finish!: (value: unknown) => void;
    const response = await answerDirectly(12, new AbortController().signal, (channel) => {
      live = channel.live;
      channel.waiting?.();
      return new Promise((resolve) => (finish = resolve));
    });
    expect(live!()).toBe(true);
    await response.body!.cancel();
    expect(live!()).toBe(false);
    finish({ content: [] });
  });
});
