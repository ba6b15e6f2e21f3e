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

  it('an error message names the server and the field', () => {
    const [error] = parseMcpConfig({ mcpServers: { gh: { type: 'http', url: 'nope' } } }).errors;
    expect(formatConfigError(error!)).toMatch(/^MCP server "gh": url: /);
  });
});
