// The Servers API over the server's real runtime: only admins manage servers, bad input is a 400
// naming the field, stdio servers need GATEHOUSE_MCP_UI_STDIO=1 (and GET says whether it is on),
// and the add and edit forms' preconditions (If-None-Match / If-Match: *) hold.
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { everythingStdio } from '@/lib/server/mcp/test-support';
import { GET as list } from '../route';
import { DELETE, PUT } from './route';

const server = withRouteRuntime('gatehouse-servers-');

const params = (name: string) => ({ params: Promise.resolve({ name }) });
const put = (name: string, json: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
  PUT(apiRequest('PUT', `/api/servers/${name}`, { json, ...options }), params(name));
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; fields?: { path: string; message: string }[] } }).error;

/** GATEHOUSE_MCP_UI_STDIO as the runtime read it at start, switched for one test. */
async function withStdio<T>(on: boolean, fn: () => Promise<T>): Promise<T> {
  const config = server.rt().config as { mcpUiStdio: boolean };
  const before = config.mcpUiStdio;
  config.mcpUiStdio = on;
  try {
    return await fn();
  } finally {
    config.mcpUiStdio = before;
  }
}

describe('/api/servers/:name', () => {
  it('a user or an approver is refused (403); nothing is stored', async () => {
    for (const role of ['user', 'approver'] as const) {
      const token = await server.tokenFor(role);
      const response = await put('web', { type: 'http', url: 'http://127.0.0.1:9/mcp' }, { token });
      expect(response.status).toBe(403);
      expect((await DELETE(apiRequest('DELETE', '/api/servers/web', { token }), params('web'))).status).toBe(403);
      expect((await list(apiRequest('GET', '/api/servers', { token }), noParams)).status).toBe(403);
    }
    expect(await server.rt().q.mcp.getServer({ name: 'web' })).toBeUndefined();
  });

  it('bad input is a 400 naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['bad-url', { type: 'http', url: 'not a url' }, 'url'],
      ['bad-headers', { type: 'http', url: 'http://127.0.0.1:9/', headers: { A: 1 } }, 'headers.A'],
      ['a__b', { type: 'http', url: 'http://127.0.0.1:9/' }, '(name)'],
      ['docs_', { type: 'http', url: 'http://127.0.0.1:9/' }, '(name)'],
      ['extra', { type: 'http', url: 'http://127.0.0.1:9/', command: 'x' }, 'command'],
    ];
    for (const [name, body, field] of cases) {
      const response = await put(name, body);
      expect(response.status, name).toBe(400);
      expect((await errorOf(response)).fields?.[0]?.path, name).toBe(field);
    }
    await withStdio(true, async () => {
      const response = await put('empty-cmd', { command: '', args: 'not-a-list' });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).fields?.map((f) => f.path)).toEqual(['command', 'args']);
      const env = await put('bad-env', { command: 'node', env: { KEY: 42 } });
      expect((await errorOf(env)).fields?.[0]?.path).toBe('env.KEY');
    });
    const malformed = await PUT(
      new Request('http://127.0.0.1:3000/api/servers/x', {
        method: 'PUT',
        headers: {
          authorization: apiRequest('GET', '/').headers.get('authorization')!,
          'content-type': 'application/json',
        },
        body: '{"type":',
      }),
      params('x'),
    );
    expect(malformed.status).toBe(400);
  });

  it('a header that cannot be sent is a 400 naming it, never echoing its value; nothing is stored', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ Authorization: 'Bearer sk-route-abc\r\nX-Injected: 1' }, 'headers.Authorization'],
      [{ Authorization: 'Bearer sk-route-abc\u0000' }, 'headers.Authorization'],
      [{ Authorization: 'Bearer sk-route-abc\u20ac' }, 'headers.Authorization'],
      [{ 'X Token': 'sk-route-abc' }, 'headers.X Token'],
    ];
    for (const [headers, field] of cases) {
      const response = await put('web', { type: 'http', url: 'http://127.0.0.1:9/mcp', headers });
      expect(response.status, field).toBe(400);
      const text = await response.text();
      expect(text).not.toContain('sk-route-abc');
      expect((JSON.parse(text) as { error: { fields: { path: string }[] } }).error.fields[0]?.path).toBe(field);
    }
    expect(await server.rt().q.mcp.getServer({ name: 'web' })).toBeUndefined();
  });

  it('stdio: refused (400 on `command`) without GATEHOUSE_MCP_UI_STDIO=1, added with it; GET says which', async () => {
    const listed = async () =>
      (await (await list(apiRequest('GET', '/api/servers'), noParams)).json()) as {
        allowStdio: boolean;
        servers: { name: string; type: string; env?: Record<string, string> }[];
      };
    expect((await listed()).allowStdio).toBe(false);
    const off = await put('every', everythingStdio());
    expect(off.status).toBe(400);
    expect((await errorOf(off)).fields?.[0]).toMatchObject({ path: 'command', message: /GATEHOUSE_MCP_UI_STDIO=1/ });
    await withStdio(true, async () => {
      expect((await listed()).allowStdio).toBe(true);
      const on = await put('every', everythingStdio({ env: { TOKEN: 'route-secret' } }), {
        headers: { 'if-none-match': '*' },
      });
      expect(on.status).toBe(201);
      const view = (await listed()).servers.find((s) => s.name === 'every');
      expect(view).toMatchObject({ type: 'stdio', env: { TOKEN: '********' } });
      expect(JSON.stringify(await listed())).not.toContain('route-secret');
    });
    // With the flag off again, an edit of it is refused as an add would be.
    expect((await put('every', everythingStdio(), { headers: { 'if-match': '*' } })).status).toBe(400);
    expect((await DELETE(apiRequest('DELETE', '/api/servers/every'), params('every'))).status).toBe(204);
  });

  it('If-None-Match: * never replaces (412 on the name); If-Match: * never re-creates (404)', async () => {
    const body = { type: 'http', url: 'http://127.0.0.1:9/mcp' };
    expect((await put('twice', body, { headers: { 'if-none-match': '*' } })).status).toBe(201);
    const again = await put(
      'twice',
      { ...body, url: 'http://127.0.0.1:9/other' },
      { headers: { 'if-none-match': '*' } },
    );
    expect(again.status).toBe(412);
    expect((await errorOf(again)).fields?.[0]?.path).toBe('(name)');
    expect((await server.rt().q.mcp.getServer({ name: 'twice' }))!.config).toMatchObject({ url: body.url });
    expect((await put('twice', { ...body, trusted: true }, { headers: { 'if-match': '*' } })).status).toBe(200);
    expect((await put('never-added', body, { headers: { 'if-match': '*' } })).status).toBe(404);
    expect(await server.rt().q.mcp.getServer({ name: 'never-added' })).toBeUndefined();
    const changed = await server.rt().q.audit.listAudit({ kind: 'mcp_server_changed' });
    expect(changed.items.some((a) => (a.details as { server?: string }).server === 'twice')).toBe(true);
    expect((await DELETE(apiRequest('DELETE', '/api/servers/twice'), params('twice'))).status).toBe(204);
  });
});
