// Every file tool stays inside the workspace: each escape is refused with outside_workspace
// before anything is read or written, and nothing outside changes.
import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';
import { writeFileTool } from './write-file';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
  await writeFile(path.join(t.outside, 'secret.txt'), 'secret\n');
  await symlink(path.join(t.outside, 'secret.txt'), path.join(t.workspace, 'file-link'));
  await symlink(t.outside, path.join(t.workspace, 'dir-link'));
  await symlink(path.join(t.outside, 'planted.txt'), path.join(t.workspace, 'dangling-link'));
});
afterEach(() => t.cleanup());

// Named escapes; the absolute one depends on the temp dir, so each is a function of it.
const ESCAPES: [name: string, input: (w: TempWorkspace) => string][] = [
  ['../ climbing out', () => '../outside/secret.txt'],
  ['an absolute path outside', (w) => path.join(w.outside, 'secret.txt')],
  ['/etc/passwd', () => '/etc/passwd'],
  ['a file symlink pointing out', () => 'file-link'],
  ['a file under a symlinked dir pointing out', () => 'dir-link/secret.txt'],
  ['a new file under a symlinked parent dir', () => 'dir-link/sub/new.txt'],
  ['a dangling symlink pointing out', () => 'dangling-link'],
];

async function expectOutsideUnchanged() {
  expect((await readdir(t.outside)).sort()).toEqual(['secret.txt']);
  expect(await readFile(path.join(t.outside, 'secret.txt'), 'utf8')).toBe('secret\n');
}

async function expectRefused(run: () => Promise<unknown>, input: string) {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe('outside_workspace');
  expect((error as ToolError).message).toContain(input);
}

describe.each(ESCAPES)('%s', (_name, inputOf) => {
  const input = () => inputOf(t);

  it('read_file refuses it', async () => {
    await expectRefused(() => readFileTool.execute({ path: input() }, toolContext(t.workspace)), input());
  });

  it('write_file refuses it (execute and preview) and writes nothing outside', async () => {
    await expectRefused(() => writeFileTool.preview!({ path: input(), content: 'pwned' }, t), input());
    await expectRefused(
      () => writeFileTool.execute({ path: input(), content: 'pwned' }, toolContext(t.workspace)),
      input(),
    );
    await expectOutsideUnchanged();
  });

  it('edit_file refuses it (execute and preview) and changes nothing outside', async () => {
    await expectRefused(() => editFileTool.preview!({ path: input(), old: 'secret', new: 'pwned' }, t), input());
    await expectRefused(
      () => editFileTool.execute({ path: input(), old: 'secret', new: 'pwned' }, toolContext(t.workspace)),
      input(),
    );
    await expectOutsideUnchanged();
  });
});

describe('list_files', () => {
  it.each(['..', '../outside', '/etc', 'dir-link', 'dir-link/'])('refuses %s', async (input) => {
    await expectRefused(() => listFilesTool.execute({ path: input }, toolContext(t.workspace)), input);
  });
});
