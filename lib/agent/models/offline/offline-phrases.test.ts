// The seed examples' user messages must reach the gate with the offline model: each phrase becomes
// its one bash call, in any case and with trailing punctuation; near misses stay prose.
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, evaluate, compilePolicy } from '../../../policy';
import { parseInstructionLine, parseInstructions } from './offline-grammar';
import { OFFLINE_PHRASES, phraseCommand } from './offline-phrases';

const COMMANDS = Object.fromEntries(OFFLINE_PHRASES.map((p) => [p.phrase, p.command]));

describe('offline phrases: each seed message becomes its bash call', () => {
  it.each([
    ['Clean up old log files', 'clean up old log files'],
    ['Deploy to staging', 'deploy to staging'],
    ['Run the test suite', 'run the test suite'],
    ['  RUN  THE test suite!  ', 'run the test suite'],
    ['Deploy to staging.', 'deploy to staging'],
  ])('%j -> the command of %j', (line, phrase) => {
    expect(parseInstructionLine(line)).toEqual({
      toolName: 'bash',
      input: { command: COMMANDS[phrase] },
      line: line.trim(),
    });
  });

  it.each([
    ['Clean up the old log files', 'another wording'],
    ['deploy to production', 'another target'],
    ['please run the test suite', 'words before the phrase'],
    ['run the test suite now', 'words after the phrase'],
  ])('%j stays prose (%s)', (line) => {
    expect(phraseCommand(line)).toBeUndefined();
    expect(parseInstructionLine(line)).toBeUndefined();
  });

  it('a phrase is one instruction line among others', () => {
    expect(parseInstructions('Deploy to staging\n$ ls').map((call) => call.input.command)).toEqual([
      COMMANDS['deploy to staging'],
      'ls',
    ]);
  });
});

describe('offline phrases: every command asks under the default policy', () => {
  const policy = compilePolicy(DEFAULT_POLICY);
  it.each(OFFLINE_PHRASES.map((p) => [p.phrase, p.command]))('%j (%s) asks', (_phrase, command) => {
    expect(evaluate(policy, { tool: 'bash', params: { command } }).action).toBe('ask');
  });
});
