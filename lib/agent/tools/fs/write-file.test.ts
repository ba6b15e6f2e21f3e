import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';
import { writeFileTool } from './write-file';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

describe('write_file', () => {
  it('previews a new file as created, with an all-added diff', async () => {
    const preview = await writeFileTool.preview!({ path: 'notes/todo.md', content: 'one\ntwo\n' }, t);
    expect(preview).toEqual({
      kind: 'diff',
      path: 'notes/todo.md',
      created: true,
      diff: '--- a/notes/todo.md\n+++ b/notes/todo.md\n@@ -0,0 +1,2 @@\n+one\n+two\n',
    });
  });

  it('creates the file and its parent directories inside the workspace', async () => {
    const result = await writeFileTool.execute(
      { path: 'notes/deep/todo.md', content: 'hi\n' },
      toolContext(t.workspace),
    );
    expect(result.output).toBe('Created notes/deep/todo.md (3 bytes).');
    expect(result.metadata).toMatchObject({ created: true, bytes: 3 });
    expect(await readFile(path.join(t.workspace, 'notes/deep/todo.md'), 'utf8')).toBe('hi\n');
  });

  it('previews an overwrite as the diff from the current content, then writes exactly that', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'keep\nold\nkeep\n');
    const input = { path: 'a.txt', content: 'keep\nnew\nkeep\n' };
    const preview = await writeFileTool.preview!(input, t);
    expect(preview?.created).toBe(false);
    expect(preview?.diff).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n keep\n-old\n+new\n keep\n');
    const result = await writeFileTool.execute(input, toolContext(t.workspace));
    expect(result.output).toBe('Wrote a.txt (14 bytes).');
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('keep\nnew\nkeep\n');
  });

  it('shortens an existing longer file (no stale tail)', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), 'a much longer original text\n');
    await writeFileTool.execute({ path: 'a.txt', content: 'short' }, toolContext(t.workspace));
    expect(await readFile(path.join(t.workspace, 'a.txt'), 'utf8')).toBe('short');
  });

  it('refuses to overwrite a binary file (no diff could show the change)', async () => {
    await writeFile(path.join(t.workspace, 'img.bin'), Buffer.from([1, 0, 2]));
    const error = await writeFileTool
      .execute({ path: 'img.bin', content: 'x' }, toolContext(t.workspace))
      .catch((e: unknown) => e);
    expect((error as ToolError).message).toMatch(/only replaces text files/);
    expect(await readFile(path.join(t.workspace, 'img.bin'))).toEqual(Buffer.from([1, 0, 2]));
  });

  it('refuses to write over a directory', async () => {
    const error = await writeFileTool
      .execute({ path: '.', content: 'x' }, toolContext(t.workspace))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('invalid_input');
  });
});
