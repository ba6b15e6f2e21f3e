// A tools/call over HTTP whose answer is not an MCP answer (an error status, a wrong content type,
// garbage, no response to the call, a cut connection): an Error with a clear message, and Upstream
// takes the server for gone (unavailable, calls fail fast until it reconnects). Redirects are
// followed within the origin only. The SDK's server sits behind a proxy that answers the
// tools/call POSTs itself; the session's other requests reach the server.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MemoryPinStore } from './pins';
import { startProxy, type ScriptedAnswer, type TestProxy } from './http-proxy.test-support';
import { startSdkServer, type SdkTestServer } from './sdk-server.test-support';
import { silentLog } from './test-support';
import { Upstream } from './upstream';

let server: SdkTestServer;
let proxy: TestProxy;
let upstream: Upstream;
beforeEach(async () => {
  server = await startSdkServer();
  proxy = await startProxy(server.url);
  upstream = new Upstream({
    name: 'sdk',
    config: { type: 'http', url: proxy.url },
    pins: new MemoryPinStore(),
    log: silentLog(),
    backoff: { initialMs: 60_000, maxMs: 60_000 },
  });
  await upstream.connect();
});
afterEach(async () => {
  await upstream.close();
  await proxy.close();
  await server.close();
});

/** Calls `notes` with the proxy answering as scripted; the result's text. */
async function callAnswered(answer: ScriptedAnswer) {
  proxy.answerCalls = answer;
  const result = await upstream.callTool('notes', { text: 'x' }, new AbortController().signal);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

const json = { 'content-type': 'application/json' };
const sse = { 'content-type': 'text/event-stream' };
const notification = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: 1 },
});

it('through the proxy, a call reaches the server', async () => {
  const result = await upstream.callTool('notes', { text: 'via proxy' }, new AbortController().signal);
  expect(result).toEqual({ content: [{ type: 'text', text: 'stored: via proxy' }] });
});

it('a 307 to another path of the origin is followed to the server, which answers', async () => {
  proxy.answerCalls = { status: 307, headers: { location: '/moved/mcp' } };
  const result = await upstream.callTool('notes', { text: 'moved' }, new AbortController().signal);
  expect(result).toEqual({ content: [{ type: 'text', text: 'stored: moved' }] });
  expect(server.calls).toEqual([{ tool: 'notes', args: { text: 'moved' } }]);
  expect(upstream.state).toBe('ready');
});

it('a 307 to another origin is not followed: an Error, and that server receives nothing', async () => {
  const elsewhere = await startSdkServer();
  try {
    proxy.answerCalls = { status: 307, headers: { location: elsewhere.url } };
    expect(await callAnswered(proxy.answerCalls)).toMatch(/HTTP 307/);
    expect(elsewhere.authorizations).toHaveLength(0);
    expect(server.calls).toHaveLength(0);
    expect(upstream.state).toBe('unavailable');
  } finally {
    await elsewhere.close();
  }
});

it('a connection cut in the middle of the SSE answer is an Error, and the server becomes unavailable', async () => {
  expect(await callAnswered({ status: 200, headers: sse, body: `data: ${notification}\n\n`, hangUp: true })).toMatch(
    /mcp__sdk__notes failed: The connection to the server failed: aborted$/,
  );
  expect(upstream.state).toBe('unavailable');
});

it('a connection cut in the middle of a JSON answer is an Error saying so', async () => {
  expect(await callAnswered({ status: 200, headers: json, body: '{"jsonrpc":', hangUp: true })).toMatch(
    /mcp__sdk__notes failed: The connection to the server failed: aborted$/,
  );
  expect(upstream.state).toBe('unavailable');
});

it('an HTTP 500 is an Error naming the status, and the server becomes unavailable', async () => {
  expect(await callAnswered({ status: 500, body: 'upstream exploded' })).toMatch(
    /mcp__sdk__notes failed: Error POSTing to endpoint \(HTTP 500\): upstream exploded/,
  );
  expect(upstream.state).toBe('unavailable');
  // The next call fails fast and never reaches the server.
  proxy.answerCalls = undefined;
  const next = await upstream.callTool('notes', { text: 'y' }, new AbortController().signal);
  expect((next.content[0] as { text: string }).text).toMatch(/is unavailable/);
  expect(server.calls).toHaveLength(0);
});

it('an HTTP 404 (the session is gone) is an Error, and the server becomes unavailable', async () => {
  expect(await callAnswered({ status: 404 })).toMatch(/HTTP 404/);
  expect(upstream.state).toBe('unavailable');
});

it('a wrong content type is an Error naming it', async () => {
  expect(await callAnswered({ status: 200, headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' })).toMatch(
    /Unexpected content type: text\/html/,
  );
  expect(upstream.state).toBe('unavailable');
});

it('a success without a content type is an Error', async () => {
  expect(await callAnswered({ status: 202 })).toMatch(/Unexpected content type: none/);
});

it("a JSON answer without the call's response is an Error", async () => {
  const other = (id: unknown) =>
    JSON.stringify([JSON.parse(notification), { jsonrpc: '2.0', id: `${id}-not`, result: {} }]);
  expect(await callAnswered({ status: 200, headers: json, body: other })).toMatch(
    /The server answered without a response to the call/,
  );
  expect(upstream.state).toBe('unavailable');
});

it("an SSE stream that ends without the call's response is an Error", async () => {
  expect(await callAnswered({ status: 200, headers: sse, body: `event: message\ndata: ${notification}\n\n` })).toMatch(
    /The server answered without a response to the call/,
  );
  expect(upstream.state).toBe('unavailable');
});

it('a garbage JSON body is an Error saying the answer is not JSON', async () => {
  expect(await callAnswered({ status: 200, headers: json, body: 'garbage' })).toMatch(/not valid JSON/);
  expect(upstream.state).toBe('unavailable');
});

it('JSON that is not JSON-RPC is an Error saying so', async () => {
  expect(await callAnswered({ status: 200, headers: json, body: '{"hello":"world"}' })).toMatch(
    /failed: The server answered with something not JSON-RPC: \{"hello":"world"\}$/,
  );
  expect(upstream.state).toBe('unavailable');
});

it("the call's answer with a key JSON-RPC does not have is refused as not JSON-RPC, as the SDK refuses it", async () => {
  const body = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] }, extra: 1 });
  expect(await callAnswered({ status: 200, headers: json, body })).toMatch(/not JSON-RPC/);
});

it("the call's answer with a result that is not an object is refused as not JSON-RPC", async () => {
  const body = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: [] });
  expect(await callAnswered({ status: 200, headers: json, body })).toMatch(/not JSON-RPC/);
});

it("a result that is not a tool's result is refused as invalid", async () => {
  const body = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: 'not a list' } });
  expect(await callAnswered({ status: 200, headers: json, body })).toMatch(/Invalid tools\/call result/);
});
