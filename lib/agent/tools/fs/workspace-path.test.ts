import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';
import { resolveWorkspacePath } from './workspace-path';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
  await mkdir(path.join(t.workspace, 'src'));
  await writeFile(path.join(t.workspace, 'src', 'a.txt'), 'a');
  await writeFile(path.join(t.outside, 'secret.txt'), 'secret');
  await symlink(path.join(t.outside, 'secret.txt'), path.join(t.workspace, 'file-link'));
  await symlink(t.outside, path.join(t.workspace, 'dir-link'));
  await symlink(path.join(t.workspace, 'src'), path.join(t.workspace, 'inner-link'));
  await symlink(path.join(t.outside, 'not-yet'), path.join(t.workspace, 'dangling-out'));
  await symlink('src/new.txt', path.join(t.workspace, 'dangling-in'));
});
afterEach(() => t.cleanup());

const refusal = async (input: string) => {
  const error = await resolveWorkspacePath(t.workspace, input).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
};

describe('resolveWorkspacePath', () => {
  it.each([
    ['src/a.txt', 'src/a.txt'],
    ['./src/../src/a.txt', 'src/a.txt'],
    ['.', '.'],
    ['src/new/deeper/file.txt', 'src/new/deeper/file.txt'],
    ['inner-link/a.txt', 'src/a.txt'],
    ['dangling-in', 'src/new.txt'],
  ])('%s stays inside as %s', async (input, rel) => {
    const resolved = await resolveWorkspacePath(t.workspace, input);
    expect(resolved.rel).toBe(rel);
    expect(resolved.real).toBe(path.join(t.workspace, rel));
  });

  it('accepts an absolute path inside the workspace', async () => {
    expect((await resolveWorkspacePath(t.workspace, path.join(t.workspace, 'src/a.txt'))).rel).toBe('src/a.txt');
  });

  it.each([
    '../outside/secret.txt',
    '..',
    'src/../../x',
    '/etc/passwd',
    'file-link',
    'dir-link/secret.txt',
    'dir-link/new/file.txt',
    'dangling-out',
  ])('%s is refused as outside the workspace, naming the path', async (input) => {
    const error = await refusal(input);
    expect(error.code).toBe('outside_workspace');
    expect(error.message).toContain(`"${input}"`);
  });

  it('does not mistake a sibling with the workspace name as prefix for inside', async () => {
    await mkdir(`${t.workspace}-evil`);
    expect((await refusal(`${t.workspace}-evil/x`)).code).toBe('outside_workspace');
  });

  it('refuses `~` (the policy would read it as the home directory) and NUL bytes', async () => {
    expect((await refusal('~/.ssh/id_rsa')).code).toBe('invalid_input');
    expect((await refusal('a\0b')).code).toBe('invalid_input');
  });

  it('refuses a symlink loop', async () => {
    await symlink('loop-b', path.join(t.workspace, 'loop-a'));
    await symlink('loop-a', path.join(t.workspace, 'loop-b'));
    expect((await refusal('loop-a/x')).code).toBe('refused');
  });
});
