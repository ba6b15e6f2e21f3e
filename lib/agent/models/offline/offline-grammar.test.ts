// Table tests for the offline grammar: each row a line and the call it must become (or none).
import { describe, expect, it } from 'vitest';
import { parseInstructionLine, parseInstructions, unescapeText } from './offline-grammar';

type Row = [line: string, toolName: string, input: Record<string, unknown>];

const CALLS: Row[] = [
  ['$ ls -la', 'bash', { command: 'ls -la' }],
  ['$ls', 'bash', { command: 'ls' }],
  ['$   git status --short  ', 'bash', { command: 'git status --short' }],
  ['$ echo "a: b => c"', 'bash', { command: 'echo "a: b => c"' }],
  ['read README.md', 'read_file', { path: 'README.md' }],
  ['read   docs/a b.md', 'read_file', { path: 'docs/a b.md' }],
  ['ls', 'list_files', {}],
  ['ls src/lib', 'list_files', { path: 'src/lib' }],
  ['write notes.txt: hello', 'write_file', { path: 'notes.txt', content: 'hello' }],
  ['write notes.txt: line1\\nline2', 'write_file', { path: 'notes.txt', content: 'line1\nline2' }],
  ['write a.txt: keep \\\\n literal', 'write_file', { path: 'a.txt', content: 'keep \\n literal' }],
  ['write empty.txt:', 'write_file', { path: 'empty.txt', content: '' }],
  ['write url.txt: see http://x.y/z', 'write_file', { path: 'url.txt', content: 'see http://x.y/z' }],
  ['edit a.ts: foo => bar', 'edit_file', { path: 'a.ts', old: 'foo', new: 'bar' }],
  ['edit a.ts: x => y => z', 'edit_file', { path: 'a.ts', old: 'x', new: 'y => z' }],
  ['edit a.ts: a\\nb => c', 'edit_file', { path: 'a.ts', old: 'a\nb', new: 'c' }],
  ['edit a.ts: remove me =>', 'edit_file', { path: 'a.ts', old: 'remove me', new: '' }],
  [
    'edit a.ts: const f = (x)=>x => const f = (y)=>y',
    'edit_file',
    { path: 'a.ts', old: 'const f = (x)=>x', new: 'const f = (y)=>y' },
  ],
  ['fetch https://example.com/a?b=c', 'fetch_url', { url: 'https://example.com/a?b=c' }],
  ['task reviewer: check the diff', 'task', { agent: 'reviewer', prompt: 'check the diff' }],
  ['task reviewer: look at a: b', 'task', { agent: 'reviewer', prompt: 'look at a: b' }],
  ['   read   padded.txt   ', 'read_file', { path: 'padded.txt' }],
  ['\tls\t', 'list_files', {}],
  ['call mcp__everything__echo {"message": "hi"}', 'mcp__everything__echo', { message: 'hi' }],
  [
    'call mcp__fs__write_file {"path":"a b.txt","content":{"x":[1,2]}}',
    'mcp__fs__write_file',
    { path: 'a b.txt', content: { x: [1, 2] } },
  ],
  ['call bash {}', 'bash', {}],
];

const NOT_CALLS: [line: string, why: string][] = [
  ['', 'blank'],
  ['    ', 'whitespace only'],
  ['hello there', 'prose'],
  ['Read README.md', 'keywords are lower-case'],
  ['reader x', 'keyword must be a whole word'],
  ['lsx', 'keyword must be a whole word'],
  ['$', 'no command'],
  ['$    ', 'no command'],
  ['read', 'no path'],
  ['fetch', 'no url'],
  ['write notes.txt', 'no colon'],
  ['write : text', 'no path'],
  ['edit a.ts: foo', 'no =>'],
  ['edit a.ts: => bar', 'empty old text'],
  ['edit a.ts', 'no colon'],
  ['task reviewer', 'no colon'],
  ['task reviewer:', 'no prompt'],
  ['task : do it', 'no agent'],
  ['please $ ls', 'instruction must start the line'],
  ['call mcp__x__y', 'call needs a JSON object'],
  ['call mcp__x__y {"a": }', 'call needs valid JSON'],
  ['call mcp__x__y [1]', 'call input must be an object'],
  ['call {"a":1}', 'call needs a tool name'],
];

describe('offline grammar: each instruction form becomes its call', () => {
  it.each(CALLS)('%j -> %s', (line, toolName, input) => {
    expect(parseInstructionLine(line)).toEqual({ toolName, input, line: line.trim() });
  });
});

describe('offline grammar: lines that are not instructions', () => {
  it.each(NOT_CALLS)('%j is not an instruction (%s)', (line) => {
    expect(parseInstructionLine(line)).toBeUndefined();
  });
});

describe('parseInstructions', () => {
  it('keeps every instruction line of a message, in order, skipping blank and prose lines', () => {
    const text = '\n  $ pwd\r\nsome prose in between\n\nread a.txt  \nls\n';
    expect(parseInstructions(text).map((call) => [call.toolName, call.input])).toEqual([
      ['bash', { command: 'pwd' }],
      ['read_file', { path: 'a.txt' }],
      ['list_files', {}],
    ]);
  });

  it('returns nothing for a message without instructions (the model then answers with help)', () => {
    expect(parseInstructions('What can you do?\nPlease help.')).toEqual([]);
  });
});

describe('unescapeText', () => {
  it.each([
    ['a\\nb', 'a\nb'],
    ['a\\\\nb', 'a\\nb'],
    ['C:\\temp', 'C:\\temp'],
    ['no escapes', 'no escapes'],
  ])('%j -> %j', (input, output) => {
    expect(unescapeText(input)).toBe(output);
  });
});
