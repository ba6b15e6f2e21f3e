// A node proxy in front of a test MCP server: it forwards every request as it is, except the
// tools/call POSTs to its own path, which a test may answer itself (an HTTP 500, a wrong content
// type, a garbage body, a redirect, a connection cut): the cases the SDK's server never produces.
// A request to any other path is forwarded to the server's (a redirect's target).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** The body; a function gets the call's JSON-RPC id (to answer it, or another one). */
  body?: string | ((id: unknown) => string);
  /** Cut the connection after the body (instead of ending the answer). */
  hangUp?: boolean;
}

export interface TestProxy {
  url: string;
  /** The answer to the next tools/call POSTs (undefined: forwarded to the server). */
  answerCalls: ScriptedAnswer | undefined;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<TestProxy> {
  const upstream = new URL(target);
  const proxy: TestProxy = { url: '', answerCalls: undefined, close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const message =
      req.method === 'POST' ? (JSON.parse(body.toString('utf8')) as { id?: unknown; method?: string }) : {};
    const scripted = message.method === 'tools/call' && req.url === upstream.pathname ? proxy.answerCalls : undefined;
    if (scripted) {
      const text = typeof scripted.body === 'function' ? scripted.body(message.id) : (scripted.body ?? '');
      res.writeHead(scripted.status, scripted.headers ?? {});
      return void (scripted.hangUp ? res.write(text, () => res.destroy()) : res.end(text));
    }
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: upstream.pathname,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    res.on('close', () => forwarded.destroy());
    forwarded.on('error', () => res.destroy());
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}${upstream.pathname}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}
