import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_FILE_MAX_BYTES, readFileTool } from './read-file';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

const read = (p: string) => readFileTool.execute({ path: p }, toolContext(t.workspace));
const failure = (p: string) =>
  read(p).then(
    () => undefined,
    (e: unknown) => e as ToolError,
  );

describe('read_file', () => {
  it('reads a text file by workspace-relative path', async () => {
    await mkdir(path.join(t.workspace, 'src'));
    await writeFile(path.join(t.workspace, 'src', 'a.ts'), 'export const a = 1;\n');
    const result = await read('src/a.ts');
    expect(result.output).toBe('export const a = 1;\n');
    expect(result.isError).toBeUndefined();
    expect(result.metadata).toMatchObject({ path: 'src/a.ts', bytes: 20 });
  });

  it('cuts a large file at the cap and marks it', async () => {
    await writeFile(path.join(t.workspace, 'big.txt'), 'x'.repeat(READ_FILE_MAX_BYTES + 1000));
    const result = await read('big.txt');
    expect(result.truncated).toBe(true);
    expect(result.output).toBe(`${'x'.repeat(READ_FILE_MAX_BYTES)}\n[output truncated: 257.0 KiB total]`);
  });

  it('refuses a binary file gracefully', async () => {
    await writeFile(path.join(t.workspace, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    const error = await failure('img.png');
    expect(error).toBeInstanceOf(ToolError);
    expect(error?.code).toBe('refused');
    expect(error?.message).toMatch(/img\.png looks like a binary file/);
  });

  it('reports a missing file and a directory as tool errors', async () => {
    expect((await failure('nope.txt'))?.code).toBe('not_found');
    await mkdir(path.join(t.workspace, 'dir'));
    expect((await failure('dir'))?.code).toBe('invalid_input');
  });

  it('does not hang on a FIFO', async () => {
    execFileSync('mkfifo', [path.join(t.workspace, 'pipe')]);
    expect((await failure('pipe'))?.code).toBe('refused');
  });
});
