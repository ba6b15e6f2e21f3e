import { describe, expect, it } from 'vitest';
import { mapGeminiCliCall, MAX_PATH_LENGTH } from './map-call';

const cwd = '/home/ann/project';

const SEARCHES = new Set(['glob', 'grep_search', 'search_file_content']);
describe('Gemini CLI calls map onto Gatehouse tools', () => {
  it.each([
    [
      'run_shell_command command -> bash command',
      'run_shell_command',
      { command: 'git status', description: 'x' },
      'bash',
      { command: 'git status' },
      'write',
    ],
    [
      'a run_shell_command with a dir_path runs there: the command judged after a cd to it',
      'run_shell_command',
      { command: 'git status', description: 'x', dir_path: 'src' },
      'bash',
      { command: "cd '/home/ann/project/src' && git status" },
      'write',
    ],
    [
      'a dir_path that is the cwd leaves the command as it is',
      'run_shell_command',
      { command: 'git status', dir_path: '/home/ann/project/' },
      'bash',
      { command: 'git status' },
      'write',
    ],
    [
      'read_file file_path -> read_file path',
      'read_file',
      { file_path: '/home/ann/project/a.ts', start_line: 1 },
      'read_file',
      { path: '/home/ann/project/a.ts' },
      'read_only',
    ],
    [
      'a relative read_file path resolves against cwd',
      'read_file',
      { file_path: 'src/a.ts' },
      'read_file',
      { path: '/home/ann/project/src/a.ts' },
      'read_only',
    ],
    [
      'a ../ escape is resolved, not confined',
      'read_file',
      { file_path: '../../bob/.ssh/id_rsa' },
      'read_file',
      { path: '/home/bob/.ssh/id_rsa' },
      'read_only',
    ],
    [
      'write_file keeps its content for the diff',
      'write_file',
      { file_path: 'n.md', content: 'hi' },
      'write_file',
      { path: '/home/ann/project/n.md', content: 'hi' },
      'write',
    ],
    [
      'replace keeps old/new under edit_file names',
      'replace',
      { file_path: '/p/a', old_string: 'a', new_string: 'b', allow_multiple: true, instruction: 'x' },
      'edit_file',
      { path: '/p/a', old: 'a', new: 'b', replace_all: true },
      'write',
    ],
    [
      // Its entries are globs matched without case and with extglob: `.ENV` reads `.env`.
      'read_many_files with one plain path still keeps its own name',
      'read_many_files',
      { include: ['.ENV'] },
      'read_many_files',
      { include: ['/home/ann/project/.ENV'] },
      'read_only',
    ],
    [
      'read_many_files with a glob keeps its own name (asks unless a rule names it)',
      'read_many_files',
      { include: ['src/**/*.ts'] },
      'read_many_files',
      { include: ['/home/ann/project/src/**/*.ts'] },
      'read_only',
    ],
    [
      'read_many_files with several paths keeps its own name',
      'read_many_files',
      { include: ['a', '/etc/passwd'], exclude: ['b'] },
      'read_many_files',
      { include: ['/home/ann/project/a', '/etc/passwd'], exclude: ['b'] },
      'read_only',
    ],
    [
      'list_directory dir_path -> list_files path',
      'list_directory',
      { dir_path: '.' },
      'list_files',
      { path: '/home/ann/project' },
      'read_only',
    ],
    [
      'glob without dir_path searches cwd',
      'glob',
      { pattern: '**/*.md' },
      'list_files',
      { path: cwd, pattern: '**/*.md' },
      'read_only',
    ],
    [
      'grep_search -> read_file of its root, with the pattern',
      'grep_search',
      { pattern: 'TODO', dir_path: 'lib' },
      'read_file',
      { path: '/home/ann/project/lib', pattern: 'TODO' },
      'read_only',
    ],
    [
      'search_file_content (older name) maps like grep_search',
      'search_file_content',
      { pattern: 'x' },
      'read_file',
      { path: cwd, pattern: 'x' },
      'read_only',
    ],
    [
      'web_fetch with one URL in its prompt -> fetch_url',
      'web_fetch',
      { prompt: 'Summarise https://example.com/a please' },
      'fetch_url',
      { url: 'https://example.com/a' },
      'read_only',
    ],
    [
      'web_fetch with several URLs keeps its own name',
      'web_fetch',
      { prompt: 'compare http://a.test and https://b.test' },
      'web_fetch',
      { urls: ['http://a.test', 'https://b.test'] },
      'read_only',
    ],
    [
      'an MCP tool keeps its name and input (asks unless a rule names it)',
      'mcp_github_create_issue',
      { title: 't' },
      'mcp_github_create_issue',
      { title: 't' },
      'write',
    ],
    ['an unknown tool keeps its name and input', 'save_memory', { fact: 'f' }, 'save_memory', { fact: 'f' }, 'write'],
  ])('%s', (_rule, tool_name, tool_input, tool, params, risk) => {
    const mapped = mapGeminiCliCall({ tool_name, tool_input, cwd });
    // A search reads its directory with everything below it (EvaluationContext.searchRoot).
    const below = SEARCHES.has(tool_name as string) ? { below: 'path' } : {};
    expect(mapped).toEqual({
      ok: true,
      call: { tool, params, ...below },
      risk,
      original: { tool: tool_name, input: tool_input },
    });
  });
});

describe('Gemini CLI calls of the wrong shape are refused, naming the field', () => {
  it.each([
    [
      'a missing command',
      'run_shell_command',
      { description: 'x' },
      cwd,
      'run_shell_command: tool_input.command must be a string (it is missing)',
    ],
    [
      'an empty command',
      'run_shell_command',
      { command: '  ' },
      cwd,
      'run_shell_command: tool_input.command must not be empty',
    ],
    [
      'a command with a NUL byte',
      'run_shell_command',
      { command: 'ls\u0000rm' },
      cwd,
      'run_shell_command: tool_input.command must not contain a NUL byte',
    ],
    ['a non-string file_path', 'read_file', { file_path: 3 }, cwd, 'read_file: tool_input.file_path must be a string'],
    [
      'a relative path with no cwd',
      'read_file',
      { file_path: 'a' },
      undefined,
      'read_file: tool_input.file_path is relative and the hook sent no cwd',
    ],
    [
      'a path longer than PATH_MAX',
      'write_file',
      { file_path: `/${'a'.repeat(MAX_PATH_LENGTH)}`, content: '' },
      cwd,
      `write_file: tool_input.file_path is longer than ${MAX_PATH_LENGTH} characters`,
    ],
    [
      'allow_multiple that is not a boolean',
      'replace',
      { file_path: 'a', old_string: 'a', new_string: 'b', allow_multiple: 'yes' },
      cwd,
      'replace: tool_input.allow_multiple must be true or false',
    ],
    [
      'an empty include list',
      'read_many_files',
      { include: [] },
      cwd,
      'read_many_files: tool_input.include must be a non-empty list',
    ],
    [
      'a web_fetch prompt with no URL',
      'web_fetch',
      { prompt: 'fetch the docs' },
      cwd,
      'web_fetch: tool_input.prompt names no URL to fetch',
    ],
    ['a relative cwd', 'read_file', { file_path: 'a' }, 'project', 'cwd must be an absolute path'],
    ['a tool_input that is not an object', 'run_shell_command', ['ls'], cwd, 'tool_input must be an object'],
    ['no tool_name', 42, {}, cwd, 'tool_name must be a non-empty string'],
  ])('%s', (_rule, tool_name, tool_input, dir, reason) => {
    expect(mapGeminiCliCall({ tool_name, tool_input, cwd: dir })).toEqual({ ok: false, reason });
  });
});
