import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { malformedPath, refuseMalformedPath } from './malformed-path.mjs';

describe('malformedPath', () => {
  it.each([
    ['/api/runs/%zz', true],
    ['/api/runs/%', true],
    ['/api/runs/abc%4', true],
    ['/api/chat/relay/%E0%A4%A', true], // a UTF-8 sequence cut short
    ['/api/runs/%FF', true], // not UTF-8
    ['/%zz?x=1', true],
  ])('%s cannot be decoded', (url, expected) => {
    expect(malformedPath(url)).toBe(expected);
  });

  it.each([
    ['/api/runs/abc'],
    ['/api/runs/a%20b'],
    ['/api/runs/%C3%A9t%C3%A9'],
    ['/api/runs/a%2Fb'],
    ['/api/health?x=%zz'], // the query is each route's business
    ['/'],
    [undefined],
  ])('%s is left to the router', (url) => {
    expect(malformedPath(url)).toBe(false);
  });
});

describe('refuseMalformedPath', () => {
  it("answers 400 with the API's JSON error naming the path", async () => {
    const server = http.createServer((req, res) =>
      malformedPath(req.url) ? refuseMalformedPath(res) : res.end('routed'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const refused = await fetch(`${base}/api/runs/%zz`);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toBe('application/json');
      const { error } = (await refused.json()) as { error: { code: string; fields: { path: string }[] } };
      expect(error.code).toBe('bad_request');
      expect(error.fields.map((f) => f.path)).toEqual(['path']);
      expect(await (await fetch(`${base}/api/runs/ok`)).text()).toBe('routed');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
