import { describe, expect, it } from 'vitest';
import { mapCodexCall, MAX_PATH_LENGTH } from './map-call';

const cwd = '/home/ann/project';
const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

describe('Codex shell calls map onto a bash command the policy can parse', () => {
  it.each([
    ['Bash command string -> bash command', { command: 'git status' }, 'git status'],
    ['a compound command string stays compound', { command: 'ls && rm -rf /' }, 'ls && rm -rf /'],
    [
      '[bash, -lc, script] -> the script the shell will parse',
      { command: ['bash', '-lc', 'ls; rm -rf ~'] },
      'ls; rm -rf ~',
    ],
    ['[/bin/sh, -c, script] -> the script', { command: ['/bin/sh', '-c', 'cat a | sh'] }, 'cat a | sh'],
    ['an argv list is quoted back: && stays a word, never an operator', { command: ['ls', '&&', 'rm'] }, "ls '&&' rm"],
    ['argv words with spaces and quotes are quoted', { command: ['echo', "it's a b"] }, `echo 'it'\\''s a b'`],
    [
      '[bash, -lc, script, extra] is not a script call: all words quoted',
      { command: ['bash', '-lc', 'ls', 'x'] },
      'bash -lc ls x',
    ],
    ["exec_command's own field name (cmd) is read", { cmd: 'make test' }, 'make test'],
    [
      'a command with its own workdir runs there: judged after a cd to it',
      { cmd: 'cat key.pem', workdir: '../secrets' },
      "cd '/home/ann/secrets' && cat key.pem",
    ],
    ['a workdir with a quote is quoted', { command: 'ls', workdir: "/tmp/it's" }, `cd '/tmp/it'\\''s' && ls`],
  ])('%s', (_rule, tool_input, command) => {
    expect(mapCodexCall({ tool_name: 'Bash', tool_input, cwd })).toEqual({
      ok: true,
      calls: [{ tool: 'bash', params: { command }, risk: 'write' }],
      original: { tool: 'Bash', input: tool_input },
    });
  });

  it.each(['shell', 'exec_command', 'local_shell', 'shell_command'])('%s is a shell tool too', (tool_name) => {
    const mapped = mapCodexCall({ tool_name, tool_input: { command: ['ls'] }, cwd });
    expect(mapped.ok && mapped.calls).toEqual([{ tool: 'bash', params: { command: 'ls' }, risk: 'write' }]);
  });
});

describe('apply_patch becomes one write per file its headers name', () => {
  it.each([
    [
      'an added file is a write_file with its content',
      patch('*** Add File: notes/a.md', '+hello', '+world'),
      [{ tool: 'write_file', params: { path: `${cwd}/notes/a.md`, content: 'hello\nworld' }, risk: 'write' }],
    ],
    [
      'an updated file is an edit_file',
      patch('*** Update File: src/a.ts', '@@', '-a', '+b'),
      [{ tool: 'edit_file', params: { path: `${cwd}/src/a.ts` }, risk: 'write' }],
    ],
    [
      'a move is an edit of the source and a write of the destination',
      patch('*** Update File: a.ts', '*** Move to: ../b.ts', '@@', '-a', '+b'),
      [
        { tool: 'edit_file', params: { path: `${cwd}/a.ts` }, risk: 'write' },
        { tool: 'write_file', params: { path: '/home/ann/b.ts' }, risk: 'write' },
      ],
    ],
    [
      'a deleted file is delete_file (no Gatehouse tool: asks unless a rule names it)',
      patch('*** Delete File: /etc/hosts'),
      [{ tool: 'delete_file', params: { path: '/etc/hosts' }, risk: 'destructive', paramKinds: { path: 'path' } }],
    ],
    [
      'a patch touching several files names each one, in order',
      patch('*** Add File: a', '+x', '*** Update File: b', '@@', ' c', '*** End of File', '*** Delete File: c'),
      [
        { tool: 'write_file', params: { path: `${cwd}/a`, content: 'x' }, risk: 'write' },
        { tool: 'edit_file', params: { path: `${cwd}/b` }, risk: 'write' },
        { tool: 'delete_file', params: { path: `${cwd}/c` }, risk: 'destructive', paramKinds: { path: 'path' } },
      ],
    ],
    [
      'a header indented in the envelope still counts (over-inclusive, never blind)',
      patch('*** Update File: a', '@@', ' *** Add File: hidden', '+x'),
      [
        { tool: 'edit_file', params: { path: `${cwd}/a` }, risk: 'write' },
        { tool: 'write_file', params: { path: `${cwd}/hidden`, content: 'x' }, risk: 'write' },
      ],
    ],
  ])('%s', (_rule, command, calls) => {
    expect(mapCodexCall({ tool_name: 'apply_patch', tool_input: { command }, cwd })).toEqual({
      ok: true,
      calls,
      original: { tool: 'apply_patch', input: { command } },
    });
  });
});

describe('other Codex tools keep their name and ask unless a rule names them', () => {
  it.each([
    ['an MCP tool keeps its name and input', 'mcp__github__create_issue', { title: 't' }],
    ['an unknown tool keeps its name and input', 'view_image', { path: 'a.png' }],
  ])('%s', (_rule, tool_name, tool_input) => {
    expect(mapCodexCall({ tool_name, tool_input, cwd })).toEqual({
      ok: true,
      calls: [{ tool: tool_name, params: tool_input, risk: 'write' }],
      original: { tool: tool_name, input: tool_input },
    });
  });
});

describe('Codex calls of the wrong shape are refused, naming the field', () => {
  it.each([
    ['a missing command', 'Bash', {}, cwd, 'Bash: tool_input.command must be a string or a non-empty list of strings'],
    ['an empty command', 'Bash', { command: ' ' }, cwd, 'Bash: tool_input.command must not be empty'],
    [
      'an empty argv list',
      'Bash',
      { command: [] },
      cwd,
      'Bash: tool_input.command must be a string or a non-empty list of strings',
    ],
    [
      'an argv word that is not a string',
      'Bash',
      { command: ['ls', 3] },
      cwd,
      'Bash: tool_input.command.1 must be a string',
    ],
    [
      'a command with a NUL byte',
      'Bash',
      { command: 'ls\u0000rm' },
      cwd,
      'Bash: tool_input.command must not contain a NUL byte',
    ],
    [
      'a patch that is not text',
      'apply_patch',
      { command: 3 },
      cwd,
      'apply_patch: tool_input.command must be the patch text',
    ],
    [
      'a patch without its envelope',
      'apply_patch',
      { command: '*** Add File: a\n+x\n' },
      cwd,
      'apply_patch: tool_input.command: the patch must start with "*** Begin Patch"',
    ],
    [
      'a patch with an unknown header',
      'apply_patch',
      { command: patch('*** Rename File: a') },
      cwd,
      'apply_patch: tool_input.command: line 2 is a header this gate does not know: "*** Rename File: a"',
    ],
    [
      'a patch naming no file',
      'apply_patch',
      { command: patch() },
      cwd,
      'apply_patch: tool_input.command: the patch names no file',
    ],
    [
      'a relative patch path with no cwd',
      'apply_patch',
      { command: patch('*** Delete File: a') },
      undefined,
      'apply_patch: the patch path "a" is relative and the hook sent no cwd',
    ],
    [
      'a patch path longer than PATH_MAX',
      'apply_patch',
      { command: patch(`*** Delete File: /${'a'.repeat(MAX_PATH_LENGTH)}`) },
      cwd,
      `apply_patch: a patch path is longer than ${MAX_PATH_LENGTH} characters`,
    ],
    [
      'a shell call carrying both command and cmd (the policy could judge one while the other runs)',
      'exec_command',
      { command: 'ls', cmd: 'rm -rf ~' },
      cwd,
      'exec_command: tool_input has both command and cmd: only one may be given',
    ],
    [
      'a patch given under two names',
      'apply_patch',
      { command: patch('*** Delete File: a'), input: patch('*** Delete File: /etc/passwd') },
      cwd,
      'apply_patch: tool_input has both command and input: only one may be given',
    ],
    ['a relative cwd', 'Bash', { command: 'ls' }, 'project', 'cwd must be an absolute path'],
    ['a tool_input that is not an object', 'Bash', ['ls'], cwd, 'tool_input must be an object'],
    ['no tool_name', 42, {}, cwd, 'tool_name must be a non-empty string'],
  ])('%s', (_rule, tool_name, tool_input, dir, reason) => {
    expect(mapCodexCall({ tool_name, tool_input, cwd: dir })).toEqual({ ok: false, reason });
  });
});
