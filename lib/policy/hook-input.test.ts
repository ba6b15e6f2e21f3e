// The rules every hook adapter reads its input by (each adapter's table tests pin its own fields).
import { describe, expect, it } from 'vitest';
import { field, hookCwd, HookInputError, MAX_PATH_LENGTH, resolvedPath, text } from './hook-input';

describe('hook input', () => {
  it('reads only own fields: a name from Object.prototype is missing, never inherited', () => {
    expect(field({}, 'constructor')).toBeUndefined();
    expect(() => text({}, 'toString')).toThrow('tool_input.toString must be a string (it is missing)');
  });

  it('refuses a NUL character in text only where the adapter asks, and always in a path', () => {
    expect(text({ a: 'x\u0000y' }, 'a')).toBe('x\u0000y');
    expect(() => text({ a: 'x\u0000y' }, 'a', { noNul: true })).toThrow(HookInputError);
    expect(() => resolvedPath('/a\u0000b', 'file_path', '/w')).toThrow('must not contain a NUL byte');
  });

  it('resolves a path against cwd, keeping a ../ escape for the policy to see, and needs a cwd for a relative one', () => {
    expect(resolvedPath('../etc/passwd', 'file_path', '/w/project')).toBe('/w/etc/passwd');
    expect(resolvedPath('/a/./b/../c', 'file_path', undefined)).toBe('/a/c');
    expect(() => resolvedPath('a', 'file_path', undefined)).toThrow('relative and the hook sent no cwd');
    expect(() => resolvedPath(`/${'a'.repeat(MAX_PATH_LENGTH)}`, 'file_path', '/w')).toThrow('longer than 4096');
  });

  it('takes an absolute cwd or none, and names what is wrong with any other', () => {
    expect(hookCwd(undefined)).toBeUndefined();
    expect(hookCwd('/w/./p/')).toBe('/w/p');
    expect(hookCwd('relative')).toEqual(new HookInputError('cwd must be an absolute path'));
    expect(hookCwd(7)).toEqual(new HookInputError('cwd must be a string'));
  });
});
