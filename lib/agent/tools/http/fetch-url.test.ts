// fetch_url against a real local server on 127.0.0.1 (the only network there is in tests).
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  compilePolicy,
  evaluate,
  type CompiledPolicy,
  type Decision,
  type RuleInput,
  type ToolCall,
} from '../../../policy';
import { createFetchUrlTool, fetchUrlTool } from './fetch-url';
import { pinnedLookup } from './pinned-http';
import { toolContext } from '../test-support';
import { ToolError } from '../types';

let server: http.Server;
let origin: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`hello from ${req.headers.host}`);
    } else if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/hello' }).end();
    } else if (url.pathname === '/loop') {
      res.writeHead(301, { location: '/loop' }).end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(100_000) }).end('y'.repeat(100_000));
    } else if (url.pathname === '/image') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' }).end(Buffer.from([0x89, 0x50, 0, 0]));
    } else if (url.pathname === '/missing') {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>not found</h1>');
    } else if (url.pathname === '/gzip') {
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync('{"ok":true}'));
    } else if (url.pathname === '/hang') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    } else {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * The real engine: fetch_url allowed by default (read_only), plus the given explicit rules, which
 * are also the administrator's policy (the one whose rules may name local addresses).
 */
function policyEvaluator(rules: RuleInput[]) {
  const policy = compilePolicy({ riskDefaults: { read_only: 'allow' }, rules });
  return Object.assign(
    vi.fn((call: ToolCall): Decision => evaluate(policy, call)),
    { policy },
  );
}

const fetchWith = (
  url: string,
  evaluator: ((call: ToolCall) => Decision) & { policy?: CompiledPolicy } = policyEvaluator([]),
  tool = fetchUrlTool,
) =>
  tool.execute(
    { url },
    toolContext('/nonexistent-workspace', { evaluate: evaluator, trustedPolicy: evaluator.policy }),
  );

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ToolError,
  );

describe('fetch_url', () => {
  it('refuses loopback when only a default allows it, before connecting', async () => {
    hits.length = 0;
    const error = await failure(fetchWith(`${origin}/hello`));
    expect(error).toBeInstanceOf(ToolError);
    expect(error?.code).toBe('refused');
    expect(error?.message).toMatch(/127\.0\.0\.1 \(loopback\)/);
    expect(hits).toEqual([]);
  });

  it('fetches loopback when an explicit rule allows the URL', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    const result = await fetchWith(`${origin}/hello`, evaluator);
    expect(result.isError).toBeUndefined();
    expect(result.output).toBe(`HTTP 200 OK\nContent-Type: text/plain; charset=utf-8\n\nhello from ${origin.slice(7)}`);
    expect(result.metadata).toMatchObject({ status: 200, bytes: expect.any(Number) });
  });

  it('resolves names and pins the checked address (localhost), keeping the Host header', async () => {
    const url = `${origin.replace('127.0.0.1', 'localhost')}/hello`;
    expect((await failure(fetchWith(url)))?.message).toMatch(/localhost resolves to .* \(loopback\)/);
    const evaluator = policyEvaluator([
      { action: 'allow', tool: 'fetch_url', params: { url: `${origin.replace('127.0.0.1', 'localhost')}/**` } },
    ]);
    const result = await fetchWith(url, evaluator);
    expect(result.output).toContain(`hello from localhost:${new URL(origin).port}`);
  });

  it('follows an allowed redirect, checking the hop with the policy', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    const result = await fetchWith(`${origin}/redirect?to=/hello`, evaluator);
    expect(result.output).toContain(`Redirected: ${origin}/redirect?to=/hello -> ${origin}/hello`);
    expect(result.output).toContain('hello from');
    expect(evaluator).toHaveBeenCalledWith({ tool: 'fetch_url', params: { url: `${origin}/hello` } });
  });

  it('stops at a redirect the policy does not allow, without contacting it', async () => {
    const evaluator = policyEvaluator([
      { action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } },
      { action: 'deny', tool: 'fetch_url', params: { url: 'http://blocked.example/**' } },
    ]);
    const error = await failure(fetchWith(`${origin}/redirect?to=http://blocked.example/x`, evaluator));
    expect(error?.code).toBe('refused');
    expect(error?.message).toMatch(/redirect to http:\/\/blocked\.example\/x is not allowed by the policy \(deny\)/);
    expect(evaluator).toHaveBeenCalledWith({ tool: 'fetch_url', params: { url: 'http://blocked.example/x' } });
  });

  it('treats an ask for a redirect hop as a stop', async () => {
    const named = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    const evaluator = Object.assign(
      vi.fn((call: ToolCall): Decision =>
        new URL(String(call.params.url)).pathname === '/hello'
          ? { action: 'ask', reason: 'default_action', explanation: 'No rule matched.' }
          : { action: 'allow', reason: 'matched_rule', explanation: 'Allowed by rule #1.' },
      ),
      { policy: named.policy },
    );
    expect((await failure(fetchWith(`${origin}/redirect?to=/hello`, evaluator)))?.message).toMatch(/\(ask\)/);
  });

  it('re-checks restricted addresses per hop: a rule for the first URL does not cover the next', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/redirect` } }]);
    const error = await failure(fetchWith(`${origin}/redirect?to=/hello`, evaluator));
    expect(error?.message).toMatch(/loopback/);
  });

  it('gives up after too many redirects', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    expect((await failure(fetchWith(`${origin}/loop`, evaluator)))?.message).toMatch(/Stopped after 5 redirects/);
  });

  it('caps the body and marks the cut', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    const result = await fetchWith(`${origin}/big`, evaluator, createFetchUrlTool({ maxBytes: 1000 }));
    expect(result.truncated).toBe(true);
    expect(result.output.endsWith(`\n\n${'y'.repeat(1000)}\n[output truncated: 97.7 KiB total]`)).toBe(true);
  });

  it('summarizes non-text bodies and marks HTTP errors', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    expect((await fetchWith(`${origin}/image`, evaluator)).output).toBe(
      'HTTP 200 OK\nContent-Type: image/png\n\n[image/png content, 4 B: not shown]',
    );
    const missing = await fetchWith(`${origin}/missing`, evaluator);
    expect(missing.isError).toBe(true);
    expect(missing.output).toContain('HTTP 404 Not Found');
  });

  it('decompresses a gzip body', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    expect((await fetchWith(`${origin}/gzip`, evaluator)).output).toBe(
      'HTTP 200 OK\nContent-Type: application/json\n\n{"ok":true}',
    );
  });

  it('stops when the run is aborted', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    const controller = new AbortController();
    hits.length = 0;
    const pending = failure(
      fetchUrlTool.execute(
        { url: `${origin}/hang` },
        toolContext('/nonexistent-workspace', {
          evaluate: evaluator,
          trustedPolicy: evaluator.policy,
          signal: controller.signal,
        }),
      ),
    );
    await vi.waitFor(() => expect(hits).toContain('/hang'));
    controller.abort();
    const error = await pending;
    expect(error?.code).toBe('failed');
    expect(error?.message).toMatch(/aborted/);
  });

  it('times out as a whole', async () => {
    const evaluator = policyEvaluator([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } }]);
    const error = await failure(fetchWith(`${origin}/hang`, evaluator, createFetchUrlTool({ timeoutMs: 300 })));
    expect(error?.code).toBe('timeout');
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/x', 'gopher://127.0.0.1/', 'javascript:alert(1)'])(
    'refuses the non-http URL %s',
    async (url) => {
      const error = await failure(fetchWith(url));
      expect(error?.code).toBe('refused');
      expect(error?.message).toMatch(/only http and https/);
    },
  );

  it.each([
    'http://[::1]:9/',
    'http://0x7f.1:9/',
    'http://[::ffff:127.0.0.1]:9/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
  ])('refuses the restricted address literal %s without an explicit rule', async (url) => {
    expect((await failure(fetchWith(url)))?.code).toBe('refused');
  });
});

describe('pinnedLookup', () => {
  it('answers any host name with the pinned address, in both callback forms', () => {
    const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 });
    const single = vi.fn();
    lookup('rebound.example', {}, single);
    expect(single).toHaveBeenCalledWith(null, '93.184.216.34', 4);
    const all = vi.fn();
    lookup('rebound.example', { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [{ address: '93.184.216.34', family: 4 }]);
  });
});
