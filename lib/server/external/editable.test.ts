import { describe, expect, it } from 'vitest';
import { runnableEdit } from './editable';

describe('runnableEdit: the edit a CLI can run, or none', () => {
  const bash = { command: "cd '/p' && npm publish" };
  it.each([
    ['the one field changed', { field: 'command' }, { command: 'npm test' }, 'npm test'],
    ['the field kept as it was', { field: 'command' }, bash, bash.command],
    ['another field added', { field: 'command' }, { ...bash, path: '/x' }, undefined],
    ['the field not text', { field: 'command' }, { command: 42 }, undefined],
    ['the prefix kept', { field: 'command', prefix: "cd '/p' && " }, { command: "cd '/p' && ls" }, "cd '/p' && ls"],
    ['the prefix dropped', { field: 'command', prefix: "cd '/p' && " }, { command: 'ls' }, undefined],
    ['a CLI that takes no edit back', null, { command: 'ls' }, undefined],
  ] as const)('%s', (_, editable, edited, expected) => {
    expect(runnableEdit(editable, bash, edited as Record<string, unknown>)).toBe(expected);
  });

  it('compares the rest whatever the key order', () => {
    const write = { path: '/p/a', content: 'x' };
    expect(runnableEdit({ field: 'content' }, write, { content: 'y', path: '/p/a' })).toBe('y');
    expect(runnableEdit({ field: 'content' }, write, { content: 'y', path: '/p/b' })).toBeUndefined();
  });
});
