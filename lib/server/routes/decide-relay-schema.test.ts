// The decision body's edit fields: the tool of a call cannot be changed, edited params come with
// an approval only and must be an object; each refusal names its field (the route answers 400).
import { expect, it } from 'vitest';
import { RelayDecisionSchema } from './decide-relay';

const paths = (body: unknown) => {
  const parsed = RelayDecisionSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
};

it.each([
  ['an edit that changes the tool', { approved: true, tool: 'write_file', params: { path: 'x' } }, 'response.tool'],
  ['edited params with a denial', { approved: false, params: { command: 'ls' } }, 'response.params'],
  ['params that are not an object', { approved: true, params: ['ls'] }, 'response.params'],
])('refuses %s, naming the field', (_what, response, path) => {
  expect(paths({ sessionId: 's1', response })).toContain(path);
});

it('accepts an approval with edited params', () => {
  expect(paths({ sessionId: 's1', response: { approved: true, params: { command: 'ls' } } })).toEqual([]);
});
