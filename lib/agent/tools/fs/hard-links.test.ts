// A hard link in the workspace to a file outside it: the file tools never write through it, and
// read it only when a person approved (real links in a temp workspace, to a temp file beside it).
import { link, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file';
import { readFileTool } from './read-file';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';
import { writeFileTool } from './write-file';

let t: TempWorkspace;
let secret: string;
beforeEach(async () => {
  t = await tempWorkspace();
  secret = path.join(t.outside, 'secret.txt');
  await writeFile(secret, 'secret\n');
  await link(secret, path.join(t.workspace, 'linked.txt'));
});
afterEach(() => t.cleanup());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ToolError,
  );

describe('hard links', () => {
  it('write_file refuses a file with more than one link, and says why; the outside file is unchanged', async () => {
    const error = await failure(
      writeFileTool.execute({ path: 'linked.txt', content: 'pwned\n' }, toolContext(t.workspace, { approved: true })),
    );
    expect(error).toBeInstanceOf(ToolError);
    expect(error?.code).toBe('refused');
    expect(error?.message).toBe(
      'refusing to write: linked.txt has 2 hard links, so it may be a file outside the workspace.',
    );
    expect(await readFile(secret, 'utf8')).toBe('secret\n');
  });

  it('write_file shows no preview of a linked file (it would show the outside content)', async () => {
    const error = await failure(writeFileTool.preview!({ path: 'linked.txt', content: 'x' }, t));
    expect(error?.message).toMatch(/^refusing to write: linked\.txt has 2 hard links/);
  });

  it('edit_file refuses a file with more than one link; the outside file is unchanged', async () => {
    const error = await failure(
      editFileTool.execute(
        { path: 'linked.txt', old: 'secret', new: 'pwned' },
        toolContext(t.workspace, { approved: true }),
      ),
    );
    expect(error?.code).toBe('refused');
    expect(error?.message).toBe(
      'refusing to edit: linked.txt has 2 hard links, so it may be a file outside the workspace.',
    );
    expect(await failure(editFileTool.preview!({ path: 'linked.txt', old: 'secret', new: 'pwned' }, t))).toBeInstanceOf(
      ToolError,
    );
    expect(await readFile(secret, 'utf8')).toBe('secret\n');
  });

  it('the write itself checks the opened file: a link made after the preview is still refused', async () => {
    await writeFile(path.join(t.workspace, 'late.txt'), 'mine\n');
    const preview = await writeFileTool.preview!({ path: 'late.txt', content: 'new\n' }, t);
    expect(preview?.created).toBe(false);
    await link(path.join(t.workspace, 'late.txt'), path.join(t.outside, 'late-copy.txt'));
    const error = await failure(
      writeFileTool.execute({ path: 'late.txt', content: 'new\n' }, toolContext(t.workspace, { approved: true })),
    );
    expect(error?.message).toMatch(/late\.txt has 2 hard links/);
    expect(await readFile(path.join(t.outside, 'late-copy.txt'), 'utf8')).toBe('mine\n');
  });

  it('a file with one link is written and edited as before', async () => {
    await writeFile(path.join(t.workspace, 'own.txt'), 'a\n');
    await writeFileTool.execute({ path: 'own.txt', content: 'b\n' }, toolContext(t.workspace));
    await editFileTool.execute({ path: 'own.txt', old: 'b', new: 'c' }, toolContext(t.workspace));
    expect(await readFile(path.join(t.workspace, 'own.txt'), 'utf8')).toBe('c\n');
  });

  it('read_file inspects: a linked file must ask, a single-link or missing file need not', async () => {
    await writeFile(path.join(t.workspace, 'own.txt'), 'a\n');
    expect(await readFileTool.inspect!({ path: 'linked.txt' }, t)).toBe(
      'linked.txt has 2 hard links, so it may be a file outside the workspace; reading it is never allowed automatically',
    );
    expect(await readFileTool.inspect!({ path: 'own.txt' }, t)).toBeUndefined();
    expect(await readFileTool.inspect!({ path: 'missing.txt' }, t)).toBeUndefined();
    expect(await readFileTool.inspect!({ path: '../outside/secret.txt' }, t)).toBeUndefined(); // refused by execute
  });

  it('read_file reads a linked file only when the call was approved (checked again on the opened file)', async () => {
    const error = await failure(readFileTool.execute({ path: 'linked.txt' }, toolContext(t.workspace)));
    expect(error?.code).toBe('refused');
    expect(error?.message).toBe(
      'refusing to read without approval: linked.txt has 2 hard links, so it may be a file outside the workspace.',
    );
    const approved = await readFileTool.execute({ path: 'linked.txt' }, toolContext(t.workspace, { approved: true }));
    expect(approved.output).toBe('secret\n');
  });
});
