// The Servers page's form as data: an edit pre-fills from the view with secrets masked and sends
// them back masked (the server keeps them), what the form does not show is carried over, and
// malformed JSON is caught in the browser naming its field.
import { describe, expect, it } from 'vitest';
import type { McpServerView } from '@/lib/contract';
import { EMPTY_SERVER_FORM, entryFromForm, formFromView, messageFor } from './server-form';

const view = (extra: Partial<McpServerView>): McpServerView => ({
  name: 'fs',
  source: 'database',
  readOnly: false,
  type: 'stdio',
  trusted: false,
  paramKinds: {},
  state: 'ready',
  tools: [],
  rejected: [],
  changes: [],
  ...extra,
});

describe('server form', () => {
  it('an edit of a stdio server round-trips: masked env goes back as the mask, args one per line', () => {
    const server = view({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/data'],
      env: { TOKEN: '********' },
      cwd: '/srv',
      trusted: true,
    });
    const form = formFromView(server);
    expect(form).toMatchObject({ type: 'stdio', command: 'npx', cwd: '/srv', trusted: true });
    expect(form.args.split('\n')).toEqual(server.args);
    expect(entryFromForm(form, server).entry).toEqual({
      command: 'npx',
      args: server.args,
      env: { TOKEN: '********' },
      cwd: '/srv',
      trusted: true,
    });
  });

  it('an edit never drops what the form does not show (paramKinds, timeoutMs)', () => {
    const server = view({
      type: 'http',
      url: 'https://mcp.example/',
      headers: { Authorization: '********' },
      paramKinds: { write: { path: 'path' } },
      timeoutMs: 5_000,
    });
    expect(entryFromForm({ ...formFromView(server), url: 'https://other.example/' }, server).entry).toEqual({
      type: 'http',
      url: 'https://other.example/',
      headers: { Authorization: '********' },
      paramKinds: { write: { path: 'path' } },
      timeoutMs: 5_000,
    });
  });

  it('headers or env that are not a JSON object are refused in the browser, naming the field', () => {
    expect(entryFromForm({ ...EMPTY_SERVER_FORM, headers: '{nope' }).errors).toEqual([
      { field: 'headers', message: expect.stringMatching(/JSON object/) },
    ]);
    expect(entryFromForm({ ...EMPTY_SERVER_FORM, type: 'stdio', command: 'x', env: '["A"]' }).errors).toEqual([
      { field: 'env', message: expect.stringMatching(/JSON object/) },
    ]);
  });

  it('empty optional fields are left out; blank argument lines are dropped', () => {
    expect(entryFromForm({ ...EMPTY_SERVER_FORM, type: 'stdio', command: ' node ', args: 'a\r\n\n b' }).entry).toEqual({
      command: 'node',
      args: ['a', ' b'],
    });
    expect(entryFromForm({ ...EMPTY_SERVER_FORM, url: 'http://x/' }).entry).toEqual({ type: 'http', url: 'http://x/' });
  });

  it("a server's field error is shown under its field, nested paths too", () => {
    const fields = [{ path: 'env.TOKEN', message: 'Invalid input: expected string' }];
    expect(messageFor(fields, 'env')).toBe('TOKEN: Invalid input: expected string');
    expect(messageFor(fields, 'en')).toBeUndefined();
    expect(messageFor([{ path: 'url', message: 'bad' }], 'url')).toBe('bad');
  });
});
