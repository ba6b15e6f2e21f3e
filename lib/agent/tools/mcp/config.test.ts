import { describe, expect, it } from 'vitest';
import { formatConfigError, parseMcpConfig, parseMcpConfigText } from './config';

describe('MCP config: the mcpServers shape, every error naming its server and field', () => {
  const rows: { rule: string; servers: Record<string, unknown>; names: string[]; errors: [string, string][] }[] = [
    {
      rule: 'a stdio server needs only a command',
      servers: { fs: { command: 'npx', args: ['x'] } },
      names: ['fs'],
      errors: [],
    },
    {
      rule: 'an http server needs type and url',
      servers: { web: { type: 'http', url: 'http://127.0.0.1:1/mcp' } },
      names: ['web'],
      errors: [],
    },
    {
      rule: 'streamable-http is http',
      servers: { web: { type: 'streamable-http', url: 'https://x.example/mcp' } },
      names: ['web'],
      errors: [],
    },
    {
      rule: 'trusted and paramKinds are accepted',
      servers: { fs: { command: 'x', trusted: true, paramKinds: { read: { path: 'path' } } } },
      names: ['fs'],
      errors: [],
    },
    {
      rule: 'an empty command names the command field',
      servers: { a: { command: '' } },
      names: [],
      errors: [['a', 'command']],
    },
    { rule: 'a missing url names the url field', servers: { a: { type: 'http' } }, names: [], errors: [['a', 'url']] },
    {
      rule: 'a url that is not http names the url field',
      servers: { a: { type: 'http', url: 'file:///etc/passwd' } },
      names: [],
      errors: [['a', 'url']],
    },
    {
      rule: 'a non-string env value names env.KEY',
      servers: { a: { command: 'x', env: { TOKEN: 1 } } },
      names: [],
      errors: [['a', 'env.TOKEN']],
    },
    {
      rule: 'an unknown param kind names the param',
      servers: { a: { command: 'x', paramKinds: { t: { p: 'file' } } } },
      names: [],
      errors: [['a', 'paramKinds.t.p']],
    },
    {
      rule: 'an unknown key is refused (a typo is not ignored)',
      servers: { a: { command: 'x', trustd: true } },
      names: [],
      errors: [['a', 'trustd']],
    },
    {
      rule: 'a name with __ is refused (it would make tool names ambiguous)',
      servers: { a__b: { command: 'x' } },
      names: [],
      errors: [['a__b', '(name)']],
    },
    {
      rule: 'a name ending in _ is refused (docs_ + x would read as docs + _x), the others still load',
      servers: { docs_: { command: 'x' }, _docs: { command: 'x' }, docs: { command: 'x' } },
      names: ['docs'],
      errors: [
        ['docs_', '(name)'],
        ['_docs', '(name)'],
      ],
    },
    {
      rule: 'a header name that is not an HTTP token names headers.<name>',
      servers: {
        web: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'X Token': 'a' } },
        ok: { command: 'x' },
      },
      names: ['ok'],
      errors: [['web', 'headers.X Token']],
    },
    {
      rule: 'a header value with a line break, NUL, control character or one above U+00FF names headers.<name>',
      servers: {
        web: {
          type: 'http',
          url: 'http://127.0.0.1:1/mcp',
          headers: { A: 'x\ny', B: 'x\ry', C: 'x\u0000y', D: 'x\u0007y', E: 'x\u0100y', F: 'x\u007fy' },
        },
      },
      names: [],
      errors: [
        ['web', 'headers.A'],
        ['web', 'headers.B'],
        ['web', 'headers.C'],
        ['web', 'headers.D'],
        ['web', 'headers.E'],
        ['web', 'headers.F'],
      ],
    },
    {
      rule: 'a header value of tab, visible ASCII and Latin-1 is accepted (and so is the mask)',
      servers: {
        web: {
          type: 'http',
          url: 'http://127.0.0.1:1/mcp',
          headers: { A: 'Bearer a\tb c~', B: 'caf\u00e9', C: '********' },
        },
      },
      names: ['web'],
      errors: [],
    },
    {
      rule: 'an env value with a NUL, or a name with "=", names env.<name>',
      servers: { a: { command: 'x', env: { TOKEN: 'x\u0000y', 'A=B': 'c' } } },
      names: [],
      errors: [
        ['a', 'env.TOKEN'],
        ['a', 'env.A=B'],
      ],
    },
    {
      rule: 'a bad server does not stop the others',
      servers: { bad: { command: 3 }, good: { command: 'x' } },
      names: ['good'],
      errors: [['bad', 'command']],
    },
    {
      rule: 'a server that is not an object is an error',
      servers: { a: 'npx' },
      names: [],
      errors: [['a', '(server)']],
    },
  ];
  for (const row of rows) {
    it(row.rule, () => {
      const parsed = parseMcpConfig({ mcpServers: row.servers });
      expect(parsed.servers.map((s) => s.name)).toEqual(row.names);
      expect(parsed.errors.map((e) => [e.server, e.field])).toEqual(row.errors);
    });
  }

  it('a file without mcpServers is one error, never a throw', () => {
    expect(parseMcpConfig([]).errors).toEqual([expect.objectContaining({ server: 'mcpServers' })]);
    expect(parseMcpConfigText('{ nope').errors[0]).toMatchObject({ server: 'mcpServers', field: '(file)' });
  });

  it('a header or env value that cannot be sent is named, never repeated, in the error', () => {
    const { errors } = parseMcpConfig({
      mcpServers: {
        web: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer sk-live-abc\ndef' } },
        cmd: { command: 'x', env: { TOKEN: 'sk-env\u0000secret' } },
      },
    });
    expect(errors.map(formatConfigError)).toEqual([
      expect.stringMatching(/^MCP server "web": headers\.Authorization: .*line break/),
      expect.stringMatching(/^MCP server "cmd": env\.TOKEN: .*NUL/),
    ]);
    expect(JSON.stringify(errors)).not.toMatch(/sk-live|sk-env/);
  });

  it('a bad header name says the rule, not zod\'s "Invalid key in record"', () => {
    const [error] = parseMcpConfig({
      mcpServers: { web: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'a:b': 'c' } } },
    }).errors;
    expect(error).toMatchObject({ field: 'headers.a:b', message: expect.stringMatching(/not a header name/) });
  });

  it('a bad name says the rule', () => {
    const [error] = parseMcpConfig({ mcpServers: { docs_: { command: 'x' } } }).errors;
    expect(formatConfigError(error!)).toMatch(/^MCP server "docs_": \(name\): must not start or end with "_"/);
  });

  it('an error message names the server and the field', () => {
    const [error] = parseMcpConfig({ mcpServers: { gh: { type: 'http', url: 'nope' } } }).errors;
    expect(formatConfigError(error!)).toMatch(/^MCP server "gh": url: /);
  });
});
