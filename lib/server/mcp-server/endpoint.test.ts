import { describe, expect, it } from 'vitest';
import { alice, setup } from './test-support/harness';
import { handleMcpPost } from './endpoint';
import { loopbackKey, loopbackMetaValue, LOOPBACK_META } from './loopback';

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('/api/mcp: tools behind the gate', () => {
  it('lists the tools with their input schemas', async () => {
    const { connect } = setup({ echo: 'allow', shout: 'ask' });
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'shout']);
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['text'] });
  });

  it("shows a token's clients only the tools it exposes; any other is unknown to them and never runs", async () => {
    const { connect, ran, gate } = setup({ echo: 'allow', shout: 'allow' }, { exposed: ['ec*'] });
    const { client } = await connect();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
    const hidden = await client.callTool({ name: 'shout', arguments: { text: 'x' } });
    expect(hidden.isError).toBe(true);
    expect(text(hidden)).toContain('Unknown tool: shout');
    expect(ran).toEqual([]);
    expect(gate.calls).toEqual([]);
  });

  it('an allowed call runs once and its result is recorded in the run', async () => {
    const { connect, ran, gate } = setup({ echo: 'allow' });
    const { client } = await connect({ name: 'my-agent' });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('echo ran with hi');
    expect(ran).toEqual(['echo:hi']);
    expect(gate.results).toEqual([expect.objectContaining({ output: 'echo ran with hi', isError: false })]);
  });

  it("a client named as another adapter's agent (claude-code, main) is seen by rules as mcp:<name>", async () => {
    for (const name of ['claude-code', 'main', 'my-agent']) {
      const { connect, gate } = setup({ echo: 'allow' });
      const { client } = await connect({ name });
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(gate.sessions.map((session) => session.agent)).toEqual([name === 'my-agent' ? 'my-agent' : `mcp:${name}`]);
    }
  });

  it('a denied call returns isError with the reason and never runs', async () => {
    const { connect, ran } = setup({ rm: 'deny' });
    const { client } = await connect();
    const result = await client.callTool({ name: 'rm', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Tool execution denied: a deny rule matches');
    expect(ran).toEqual([]);
  });

  it('invalid arguments are a tool error before the gate', async () => {
    const { connect, gate, ran } = setup({ echo: 'allow' });
    const { client } = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { text: 3 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Invalid arguments for echo');
    expect(gate.calls).toEqual([]);
    expect(ran).toEqual([]);
  });
});

describe('/api/mcp: asking through elicitation', () => {
  it('elicitation accept approves the call once and it runs', async () => {
    const { connect, ran, answers } = setup({ shout: 'ask' });
    const prompts: string[] = [];
    const { client } = await connect({ elicit: (message) => (prompts.push(message), { action: 'accept' }) });
    const result = await client.callTool({ name: 'shout', arguments: { text: 'go' } });
    expect(text(result)).toBe('shout ran with go');
    expect(ran).toEqual(['shout:go']);
    expect(prompts[0]).toContain('shout {"text":"go"}');
    expect(answers).toEqual([{ relayId: 'relay-1', approved: true, accepted: true }]);
  });

  it.each(['decline', 'cancel'] as const)('elicitation %s is a denial and nothing runs', async (action) => {
    const { connect, ran } = setup({ shout: 'ask' });
    const { client } = await connect({ elicit: () => ({ action }) });
    const result = await client.callTool({ name: 'shout', arguments: { text: 'go' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(`answered ${action}`);
    expect(ran).toEqual([]);
  });

  it('a decision in Gatehouse first wins; the late elicitation answer changes nothing', async () => {
    const { connect, ran, gate, answers } = setup({ shout: 'ask' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { client } = await connect({
      elicit: async () => {
        await held;
        return { action: 'accept' };
      },
    });
    const relay = gate.nextRelay();
    const call = client.callTool({ name: 'shout', arguments: { text: 'go' } });
    expect(gate.answer(await relay, { approved: false, reason: 'No, said the admin', by: 'admin' })).toBe(true);
    const result = await call;
    release();
    expect(text(result)).toContain('No, said the admin');
    expect(ran).toEqual([]);
    expect(answers.every((a) => !a.accepted)).toBe(true);
  });
});

describe('/api/mcp: clients without elicitation', () => {
  it('wait for the decision in Gatehouse, with progress notifications while they wait', async () => {
    const { connect, ran, gate } = setup({ shout: 'ask' });
    const { client } = await connect();
    const relay = gate.nextRelay();
    const progress: number[] = [];
    const call = client.callTool({ name: 'shout', arguments: { text: 'go' } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    const relayId = await relay;
    await expect.poll(() => progress.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    gate.answer(relayId, { approved: true, by: 'u-admin' });
    const result = await call;
    expect(text(result)).toBe('shout ran with go');
    expect(ran).toEqual(['shout:go']);
  });

  it('are declined at once when their token is set so', async () => {
    const { connect, ran } = setup({ shout: 'ask' }, { decline: true });
    const { client } = await connect();
    const result = await client.callTool({ name: 'shout', arguments: { text: 'go' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('cannot confirm');
    expect(ran).toEqual([]);
  });
});

describe('/api/mcp: asked once, never twice', () => {
  const key = loopbackKey('test-secret');
  const origin = { run: 'agent-run-1', call: 'toolu_1' };

  it('a call carrying the proof of Gatehouse’s own agent runs without asking again', async () => {
    const { connect, ran, gate } = setup({ shout: 'ask' });
    const { client } = await connect();
    const meta = loopbackMetaValue(key, 'shout', { text: 'go' }, 'Bearer alice-token', origin);
    const result = await client.callTool({
      name: 'shout',
      arguments: { text: 'go' },
      _meta: { [LOOPBACK_META]: meta },
    });
    expect(text(result)).toBe('shout ran with go');
    expect(gate.calls).toEqual([]);
    expect(ran).toEqual(['shout:go']);
  });

  it('a proof for a call id as long as an MCP call can have (mcp- and 200 characters) is honoured', async () => {
    const { connect, ran } = setup({ shout: 'deny' });
    const { client } = await connect();
    const long = { run: 'agent-run-long', call: `mcp-${'7'.repeat(200)}` };
    const meta = loopbackMetaValue(key, 'shout', { text: 'go' }, 'Bearer alice-token', long);
    const result = await client.callTool({
      name: 'shout',
      arguments: { text: 'go' },
      _meta: { [LOOPBACK_META]: meta },
    });
    expect(text(result)).toBe('shout ran with go');
    expect(ran).toEqual(['shout:go']);
  });

  it('the same proof sent again runs nothing: one decided call runs once', async () => {
    const { connect, ran, gate } = setup({ shout: 'ask' });
    const { client } = await connect();
    const meta = loopbackMetaValue(key, 'shout', { text: 'go' }, 'Bearer alice-token', {
      run: 'agent-run-2',
      call: 'toolu_2',
    });
    const call = { name: 'shout', arguments: { text: 'go' }, _meta: { [LOOPBACK_META]: meta } };
    expect(text(await client.callTool(call))).toBe('shout ran with go');
    const replayed = await client.callTool(call);
    expect(replayed.isError).toBe(true);
    expect(text(replayed)).toContain("was not run again: the agent's call toolu_2 has already been executed");
    expect(ran).toEqual(['shout:go']);
    expect(gate.calls).toEqual([]);
  });

  it('a proof for other arguments, another call, another token or another installation does not skip the gate', async () => {
    const { connect, ran } = setup({ shout: 'deny' });
    const { client } = await connect();
    const genuine = loopbackMetaValue(key, 'shout', { text: 'go' }, 'Bearer alice-token', origin);
    for (const meta of [
      loopbackMetaValue(key, 'shout', { text: 'other' }, 'Bearer alice-token', origin),
      loopbackMetaValue(key, 'shout', { text: 'go' }, 'Bearer another-token', origin),
      loopbackMetaValue(loopbackKey('another-secret'), 'shout', { text: 'go' }, 'Bearer alice-token', origin),
      // The genuine proof, moved to another call of the run (its claim would be free).
      { ...genuine, call: 'toolu_other' },
      { ...genuine, run: 'another-run' },
      // Malformed.
      genuine.proof,
      { ...genuine, proof: undefined },
      { ...genuine, call: 'x'.repeat(257) },
    ]) {
      const result = await client.callTool({
        name: 'shout',
        arguments: { text: 'go' },
        _meta: { [LOOPBACK_META]: meta },
      });
      expect(result.isError).toBe(true);
    }
    expect(ran).toEqual([]);
  });
});

describe('/api/mcp: bad input', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    new Request('http://gatehouse.test/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it.each([
    ['a non-JSON-RPC object', { hello: 1 }],
    ['an empty batch', []],
    ['a number', 3],
    ['a request without a method', { jsonrpc: '2.0', id: 1 }],
  ])('%s is a JSON-RPC error, never a 500', async (_name, body) => {
    const { deps } = setup({});
    const response = await handleMcpPost(post(body), body, alice, deps);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('a request without a session is 400; a forged or another user’s session is 404', async () => {
    const { deps, connect } = setup({ echo: 'allow' });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await handleMcpPost(post(list), list, alice, deps)).status).toBe(400);
    const forged = await handleMcpPost(post(list, { 'mcp-session-id': 'abc.def' }), list, alice, deps);
    expect(forged.status).toBe(404);
    const { transport } = await connect();
    const bob = { ...alice, id: 'u-bob', tokenId: 'tok-bob' };
    const borrowed = await handleMcpPost(post(list, { 'mcp-session-id': transport.sessionId! }), list, bob, deps);
    expect(borrowed.status).toBe(404);
  });
});

describe('/api/mcp: a client that stops waiting', () => {
  const callBody = {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'shout', arguments: { text: 'go' } },
  };
  const post = (sessionId: string) =>
    new Request('http://gatehouse.test/api/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(callBody),
    });

  it('a disconnect is no cancellation: the ask stays open, and an approval then finds no one and runs nothing', async () => {
    const { connect, deps, gate, ran } = setup({ shout: 'ask' });
    const { transport } = await connect();
    const relay = gate.nextRelay();
    const response = await handleMcpPost(post(transport.sessionId!), callBody, alice, deps);
    const relayId = await relay;
    await response.body!.cancel();
    expect(gate.answer(relayId, { approved: true, by: 'u-admin' })).toBe(true);
    await expect.poll(() => gate.results.length, { timeout: 10_000 }).toBe(1);
    expect(gate.results[0]).toMatchObject({ isError: true, output: expect.stringContaining('Not run') });
    expect(ran).toEqual([]);
  });

  it('an explicit cancel (notifications/cancelled) withdraws the ask and nothing runs', async () => {
    const { connect, gate, ran } = setup({ shout: 'ask' });
    const { client } = await connect();
    const relay = gate.nextRelay();
    const abort = new AbortController();
    const call = client.callTool({ name: 'shout', arguments: { text: 'go' } }, undefined, { signal: abort.signal });
    const relayId = await relay;
    abort.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await expect.poll(() => gate.answer(relayId, { approved: true, by: 'u-admin' })).toBe(false);
    expect(ran).toEqual([]);
  });
});
