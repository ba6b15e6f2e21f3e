// The offline model's answer lines: every tool-result output type, truncation, denials verbatim.
import type { LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { answerLine, HELP_TEXT, MAX_RESULT_CHARS, truncateOutput } from './offline-reply';

describe('answerLine', () => {
  const rows: [string, LanguageModelV4ToolResultOutput | undefined, string][] = [
    ['text', { type: 'text', value: 'hello\n' }, 'bash: hello'],
    ['empty text', { type: 'text', value: '' }, 'bash: (no output)'],
    ['json', { type: 'json', value: { exitCode: 0, out: 'ok' } }, 'bash: {"exitCode":0,"out":"ok"}'],
    ['json string', { type: 'json', value: 'plain' }, 'bash: plain'],
    ['error-text', { type: 'error-text', value: 'exit 2: no such file' }, 'bash failed: exit 2: no such file'],
    ['error-json', { type: 'error-json', value: { code: 'timeout' } }, 'bash failed: {"code":"timeout"}'],
    [
      'content',
      {
        type: 'content',
        value: [
          { type: 'text', text: 'part one' },
          { type: 'text', text: 'part two' },
        ],
      },
      'bash: part one\npart two',
    ],
    ['missing result', undefined, 'bash: (no result)'],
    [
      'denial as text',
      { type: 'text', value: 'Tool execution denied: rule "no rm" forbids rm -rf /' },
      'bash: Tool execution denied: rule "no rm" forbids rm -rf /',
    ],
    [
      'denial as error-text',
      { type: 'error-text', value: 'Tool execution denied: denied by alice' },
      'bash: Tool execution denied: denied by alice',
    ],
    ['execution-denied', { type: 'execution-denied', reason: 'not today' }, 'bash: Tool execution denied: not today'],
    ['execution-denied without reason', { type: 'execution-denied' }, 'bash: Tool execution denied: no reason given'],
  ];

  it.each(rows)('%s', (_, output, expected) => {
    expect(answerLine('bash', output)).toBe(expected);
  });

  it('never truncates a denial reason', () => {
    const reason = `Tool execution denied: ${'long reason '.repeat(60)}`.trim();
    expect(answerLine('bash', { type: 'text', value: reason })).toBe(`bash: ${reason}`);
  });
});

describe('truncateOutput', () => {
  it('keeps short output whole', () => {
    expect(truncateOutput('a\nb\nc')).toBe('a\nb\nc');
  });

  it('keeps at most five lines and marks the cut', () => {
    const out = truncateOutput(['1', '2', '3', '4', '5', '6', '7'].join('\n'));
    expect(out).toBe('1\n2\n3\n4\n5\n… (truncated)');
  });

  it('keeps at most MAX_RESULT_CHARS characters and marks the cut', () => {
    const out = truncateOutput('x'.repeat(1000));
    expect(out).toBe(`${'x'.repeat(MAX_RESULT_CHARS)}\n… (truncated)`);
  });

  it('does not call CRLF output truncated', () => {
    expect(truncateOutput('a\r\nb')).toBe('a\nb');
  });
});

describe('HELP_TEXT', () => {
  it('documents every instruction form', () => {
    for (const form of [
      '$ <command>',
      'read <path>',
      'ls [<path>]',
      'write <path>: <content>',
      'edit <path>: <old> => <new>',
      'fetch <url>',
      'task <agent>: <prompt>',
    ]) {
      expect(HELP_TEXT).toContain(form);
    }
  });
});
