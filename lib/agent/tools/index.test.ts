import { mkdtemp, realpath, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PARAM_KINDS, BUILTIN_RISKS } from '../../policy';
import { builtinTools, createWorkspace } from './index';

describe('builtinTools', () => {
  it('holds the six built-in tools, each once', () => {
    expect(builtinTools.map((tool) => tool.name).sort()).toEqual([
      'bash',
      'edit_file',
      'fetch_url',
      'list_files',
      'read_file',
      'write_file',
    ]);
  });

  it.each(builtinTools.map((tool) => [tool.name, tool] as const))(
    '%s agrees with the policy engine on risk and param kinds',
    (name, tool) => {
      expect(tool.risk).toBe(BUILTIN_RISKS[name]);
      expect(tool.paramKinds).toEqual(BUILTIN_PARAM_KINDS[name]);
      expect(tool.description.length).toBeGreaterThan(20);
    },
  );

  it('rejects inputs of the wrong shape at the schema', () => {
    const byName = Object.fromEntries(builtinTools.map((tool) => [tool.name, tool]));
    expect(byName.bash!.inputSchema.safeParse({ command: 42 }).success).toBe(false);
    expect(byName.edit_file!.inputSchema.safeParse({ path: 'a', old: '', new: 'x' }).success).toBe(false);
    expect(byName.list_files!.inputSchema.safeParse({}).success).toBe(true);
  });
});

describe('createWorkspace', () => {
  it('creates the directory and returns its real path', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-ws-'));
    try {
      await symlink(base, `${base}-link`);
      const env = await createWorkspace(path.join(`${base}-link`, 'a', 'workspace'));
      expect(env.workspace).toBe(path.join(await realpath(base), 'a', 'workspace'));
      expect((await stat(env.workspace)).isDirectory()).toBe(true);
      expect((await createWorkspace(env.workspace)).workspace).toBe(env.workspace);
    } finally {
      await rm(`${base}-link`, { force: true });
      await rm(base, { recursive: true, force: true });
    }
  });
});
