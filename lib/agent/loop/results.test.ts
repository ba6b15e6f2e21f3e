// The denial is a fact of the checkpoint: written on the result's part, read back from it, and
// never inferred from the wording (a tool may print the same words).
import { describe, expect, it } from 'vitest';
import { checkpointedResults, denial, toolMessage } from './results';

const calls = [
  { toolCallId: 'a', toolName: 'bash', input: { command: 'sudo ls' } },
  { toolCallId: 'b', toolName: 'bash', input: { command: 'echo' } },
  { toolCallId: 'c', toolName: 'bash', input: { command: 'false' } },
];

describe('a denial recorded as a fact in the checkpoint', () => {
  it('round-trips through the tool message: denied, ok, and an error that only reads like a denial', () => {
    const mimic = { output: denial('it says so').output, isError: true };
    const message = toolMessage(calls, [denial('sudo is denied'), { output: 'hi', isError: false }, mimic]);
    const back = checkpointedResults(JSON.parse(JSON.stringify(message)));
    expect(back.get('a')).toEqual({
      output: 'Tool execution denied: sudo is denied. Do not retry the same call.',
      isError: true,
      denied: true,
    });
    expect(back.get('b')).toEqual({ output: 'hi', isError: false });
    expect(back.get('c')).toEqual(mimic);
  });
});
