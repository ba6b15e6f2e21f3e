// A hook's Grep or Glob reads a directory and everything below it (EvaluationContext.searchRoot):
// deny and ask rules for a path beneath the directory apply to the search, as they do to
// `grep -r` in a shell command; allow rules still match the directory itself.
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate, type EvaluationContext, type PolicyInput } from './index';

const policy = compilePolicy({
  defaultAction: 'allow',
  rules: [
    { action: 'deny', tool: 'read_file', params: { path: '/home/dev/secrets/**' } },
    { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
    { action: 'ask', tool: 'read_file', params: { path: '/home/dev/project/vault/*' } },
  ],
} satisfies PolicyInput);
const ctx: EvaluationContext = { workspaceRoot: '/home/dev/project', homeDir: '/home/dev', risk: 'read_only' };
const search = (path: string) =>
  evaluate(policy, { tool: 'read_file', params: { path } }, { ...ctx, searchRoot: 'path' });
const read = (path: string) => evaluate(policy, { tool: 'read_file', params: { path } }, ctx);

describe('a searched directory is judged by everything below it', () => {
  it.each([
    ['/home/dev', 'deny'],
    ['/home', 'deny'],
    ['/', 'deny'],
    ['/home/dev/secrets', 'deny'],
    // Any folder may hold a .env.
    ['/home/dev/project/src', 'deny'],
  ])('a search of %s: %s', (path, action) => {
    expect(search(path).action).toBe(action);
  });

  it('the same paths read as one file are judged as that file', () => {
    expect(read('/home/dev').action).toBe('allow');
    expect(read('/home/dev/project/src').action).toBe('allow');
  });

  it('an ask rule beneath the directory asks', () => {
    const asking = compilePolicy({
      defaultAction: 'allow',
      rules: [{ action: 'ask', tool: 'read_file', params: { path: '/home/dev/project/vault/*' } }],
    });
    const call = { tool: 'read_file', params: { path: '/home/dev/project' } };
    expect(evaluate(asking, call, { ...ctx, searchRoot: 'path' }).action).toBe('ask');
    expect(evaluate(asking, call, ctx).action).toBe('allow');
    // Beside the folder the rule names, nothing beneath can match it.
    const beside = { tool: 'read_file', params: { path: '/home/dev/project/src' } };
    expect(evaluate(asking, beside, { ...ctx, searchRoot: 'path' }).action).toBe('allow');
  });

  it('allow rules still match the directory, and a param that is not a path is ignored', () => {
    const allowing = compilePolicy({
      defaultAction: 'ask',
      rules: [{ action: 'allow', tool: 'read_file', params: { path: '/home/dev/project/**' } }],
    });
    const call = { tool: 'read_file', params: { path: '/home/dev/project/src' } };
    expect(evaluate(allowing, call, { ...ctx, searchRoot: 'path' }).action).toBe('allow');
    expect(evaluate(allowing, call, { ...ctx, searchRoot: 'pattern' }).action).toBe('allow');
  });

  it('a deny rule with a condition on the path: a glob is tested below the directory, anything else may match', () => {
    const conditioned = compilePolicy({
      defaultAction: 'allow',
      rules: [
        { action: 'deny', tool: 'read_file', when: [{ key: 'path', op: 'glob', value: '/home/dev/secrets/**' }] },
        { action: 'deny', tool: 'list_files', when: [{ key: 'path', op: 'regex', value: 'secret' }] },
      ],
    });
    const search = (tool: string, path: string) =>
      evaluate(conditioned, { tool, params: { path } }, { ...ctx, searchRoot: 'path' }).action;
    expect(search('read_file', '/home/dev')).toBe('deny');
    expect(search('read_file', '/home/dev/project')).toBe('allow');
    // What a regex would match below the directory cannot be known from its name.
    expect(search('list_files', '/home/dev/project')).toBe('deny');
    expect(evaluate(conditioned, { tool: 'list_files', params: { path: '/home/dev/project' } }, ctx).action).toBe(
      'allow',
    );
  });

  it('with many rules (the path index) a deny rule beneath the directory still counts', () => {
    const many = compilePolicy({
      defaultAction: 'allow',
      rules: [
        ...Array.from({ length: 300 }, (_, i) => ({
          action: 'deny' as const,
          tool: 'read_file',
          params: { path: `/srv/data-${i}/**` },
        })),
        { action: 'deny', tool: 'read_file', params: { path: '/home/dev/secrets/**' } },
      ],
    });
    const call = { tool: 'read_file', params: { path: '/home/dev' } };
    expect(evaluate(many, call, { ...ctx, searchRoot: 'path' }).action).toBe('deny');
    expect(evaluate(many, call, ctx).action).toBe('allow');
  });
});
