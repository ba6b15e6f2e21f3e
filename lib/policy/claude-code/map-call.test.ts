import { describe, expect, it } from 'vitest';
import { mapClaudeCodeCall, MAX_PATH_LENGTH } from './map-call';

const cwd = '/home/ann/project';

const SEARCHES = new Set(['Grep', 'Glob']);
describe('Claude Code calls map onto Gatehouse tools', () => {
  it.each([
    [
      'Bash command -> bash command',
      'Bash',
      { command: 'git status', description: 'x' },
      'bash',
      { command: 'git status' },
      'write',
    ],
    [
      'Read file_path -> read_file path',
      'Read',
      { file_path: '/home/ann/project/a.ts', limit: 10 },
      'read_file',
      { path: '/home/ann/project/a.ts' },
      'read_only',
    ],
    [
      'a relative Read path resolves against cwd',
      'Read',
      { file_path: 'src/a.ts' },
      'read_file',
      { path: '/home/ann/project/src/a.ts' },
      'read_only',
    ],
    [
      'Write keeps its content for the diff',
      'Write',
      { file_path: 'n.md', content: 'hi' },
      'write_file',
      { path: '/home/ann/project/n.md', content: 'hi' },
      'write',
    ],
    [
      'Edit keeps old/new under edit_file names',
      'Edit',
      { file_path: '/p/a', old_string: 'a', new_string: 'b', replace_all: true },
      'edit_file',
      { path: '/p/a', old: 'a', new: 'b', replace_all: true },
      'write',
    ],
    [
      'MultiEdit keeps every edit',
      'MultiEdit',
      { file_path: '/p/a', edits: [{ old_string: 'a', new_string: 'b' }] },
      'edit_file',
      { path: '/p/a', edits: [{ old: 'a', new: 'b' }] },
      'write',
    ],
    [
      'NotebookEdit notebook_path -> edit_file path',
      'NotebookEdit',
      { notebook_path: 'n.ipynb', new_source: 'x=1' },
      'edit_file',
      { path: '/home/ann/project/n.ipynb', new: 'x=1' },
      'write',
    ],
    [
      'Grep reads contents: read_file, path = cwd when missing',
      'Grep',
      { pattern: 'TODO' },
      'read_file',
      { path: cwd, pattern: 'TODO' },
      'read_only',
    ],
    [
      'Glob lists: list_files',
      'Glob',
      { pattern: '**/*.ts', path: 'src' },
      'list_files',
      { path: '/home/ann/project/src', pattern: '**/*.ts' },
      'read_only',
    ],
    ['LS lists: list_files', 'LS', { path: '/etc' }, 'list_files', { path: '/etc' }, 'read_only'],
    [
      'WebFetch url -> fetch_url url',
      'WebFetch',
      { url: 'https://example.com/x', prompt: 'sum' },
      'fetch_url',
      { url: 'https://example.com/x' },
      'read_only',
    ],
    [
      'WebSearch keeps its name, query as text',
      'WebSearch',
      { query: 'zod v4' },
      'WebSearch',
      { text: 'zod v4' },
      'read_only',
    ],
    [
      'mcp tools pass by name with their input',
      'mcp__github__create_issue',
      { title: 't' },
      'mcp__github__create_issue',
      { title: 't' },
      'write',
    ],
    ['unknown tools pass by name, risk write', 'Task', { prompt: 'p' }, 'Task', { prompt: 'p' }, 'write'],
  ])('%s', (_name, tool_name, tool_input, tool, params, risk) => {
    const mapped = mapClaudeCodeCall({ tool_name, tool_input, cwd });
    // A search reads its directory with everything below it (EvaluationContext.searchRoot).
    const below = SEARCHES.has(tool_name as string) ? { below: 'path' } : {};
    expect(mapped).toEqual({
      ok: true,
      call: { tool, params, ...below },
      risk,
      original: { tool: tool_name, input: tool_input },
    });
  });

  it.each([
    ['../ escapes stay resolved, not confined', 'Read', { file_path: '../../.ssh/id_rsa' }, '/home/.ssh/id_rsa'],
    [
      'absolute paths are normalised',
      'Write',
      { file_path: '/home/ann/project/./src//../.env', content: '' },
      '/home/ann/project/.env',
    ],
    [
      'an absolute path ignores cwd',
      'Edit',
      { file_path: '/etc/passwd', old_string: 'a', new_string: 'b' },
      '/etc/passwd',
    ],
  ])('%s', (_name, tool_name, tool_input, expected) => {
    const mapped = mapClaudeCodeCall({ tool_name, tool_input, cwd });
    expect(mapped.ok && mapped.call.params.path).toBe(expected);
  });

  it.each([
    ['a number where a string belongs', 'Bash', { command: 42 }, cwd, /tool_input\.command must be a string/],
    ['a missing command', 'Bash', {}, cwd, /tool_input\.command must be a string \(it is missing\)/],
    ['an empty command', 'Bash', { command: '  ' }, cwd, /tool_input\.command must not be empty/],
    ['a NUL byte in a command', 'Bash', { command: 'ls\u0000rm' }, cwd, /command must not contain a NUL/],
    [
      'a command to run outside the sandbox',
      'Bash',
      { command: 'ls', dangerouslyDisableSandbox: true },
      cwd,
      /dangerouslyDisableSandbox is true: Gatehouse does not allow commands outside/,
    ],
    ['a NUL byte in a path', 'Read', { file_path: '/a\u0000/b' }, cwd, /file_path must not contain a NUL/],
    ['a relative path with no cwd', 'Read', { file_path: 'a.ts' }, undefined, /relative and the hook sent no cwd/],
    ['Glob with no path and no cwd', 'Glob', { pattern: '*' }, undefined, /path is missing and the hook sent no cwd/],
    ['a relative cwd', 'Read', { file_path: 'a' }, 'project', /cwd must be an absolute path/],
    ['a cwd of the wrong type', 'Read', { file_path: '/a' }, 7, /cwd must be a string/],
    ['a huge path', 'Read', { file_path: `/${'a'.repeat(MAX_PATH_LENGTH)}` }, cwd, /longer than 4096/],
    ['Write without content', 'Write', { file_path: '/a' }, cwd, /tool_input\.content must be a string/],
    [
      'Edit with a numeric new_string',
      'Edit',
      { file_path: '/a', old_string: 'a', new_string: 1 },
      cwd,
      /new_string must be a string/,
    ],
    [
      'MultiEdit with a bad edit',
      'MultiEdit',
      { file_path: '/a', edits: [{ old_string: 'a' }] },
      cwd,
      /edits\.0\.new_string/,
    ],
    ['MultiEdit without edits', 'MultiEdit', { file_path: '/a', edits: [] }, cwd, /edits must be a non-empty list/],
    ['WebFetch with an object url', 'WebFetch', { url: { href: 'x' } }, cwd, /tool_input\.url must be a string/],
    ['an inherited field is not a field', 'Bash', Object.create({ command: 'ls' }), cwd, /command must be a string/],
  ])('refuses %s, naming the field', (_name, tool_name, tool_input, hookCwd, reason) => {
    const mapped = mapClaudeCodeCall({ tool_name, tool_input, cwd: hookCwd });
    expect(mapped.ok).toBe(false);
    expect(!mapped.ok && mapped.reason).toMatch(reason);
  });

  it.each([
    ['a string tool_input', 'Bash', 'ls', /tool_input must be an object/],
    ['an array tool_input', 'Bash', ['ls'], /tool_input must be an object/],
    ['a null tool_input', 'Read', null, /tool_input must be an object/],
    ['a missing tool_name', undefined, {}, /tool_name/],
    ['a numeric tool_name', 5, {}, /tool_name/],
  ])('refuses %s', (_name, tool_name, tool_input, reason) => {
    const mapped = mapClaudeCodeCall({ tool_name, tool_input, cwd });
    expect(!mapped.ok && mapped.reason).toMatch(reason);
  });

  it('prototype keys neither pick a mapper nor pollute anything', () => {
    for (const tool_name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const mapped = mapClaudeCodeCall({ tool_name, tool_input: {}, cwd });
      expect(mapped).toMatchObject({ ok: true, call: { tool: tool_name, params: {} }, risk: 'write' });
    }
    const input = JSON.parse('{"__proto__": {"command": "rm -rf /"}, "x": 1}') as unknown;
    const mcp = mapClaudeCodeCall({ tool_name: 'mcp__s__t', tool_input: input, cwd });
    expect(mcp.ok && Object.getPrototypeOf(mcp.call.params)).toBe(Object.prototype);
    expect(mcp.ok && Object.hasOwn(mcp.call.params, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).command).toBeUndefined();
    expect(mapClaudeCodeCall({ tool_name: 'Bash', tool_input: input, cwd }).ok).toBe(false);
  });

  it('a huge command is passed whole: the policy never allows what it cannot read', () => {
    const command = `echo ${'a'.repeat(1_000_000)}`;
    const mapped = mapClaudeCodeCall({ tool_name: 'Bash', tool_input: { command }, cwd });
    expect(mapped.ok && mapped.call.params.command).toBe(command);
  });
});
