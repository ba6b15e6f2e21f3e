import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countOccurrences, editFileTool } from './edit-file';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';

let t: TempWorkspace;
const file = () => path.join(t.workspace, 'app.ts');
beforeEach(async () => {
  t = await tempWorkspace();
  await writeFile(file(), 'const a = 1;\nconst b = 2;\nconst c = 1;\n');
});
afterEach(() => t.cleanup());

const edit = (old: string, replacement: string) =>
  editFileTool.execute({ path: 'app.ts', old, new: replacement }, toolContext(t.workspace));
const failure = (old: string) =>
  edit(old, 'x').then(
    () => undefined,
    (e: unknown) => e as ToolError,
  );

describe('edit_file', () => {
  it('replaces the one occurrence, and previews exactly that change', async () => {
    const preview = await editFileTool.preview!({ path: 'app.ts', old: 'b = 2', new: 'b = 3' }, t);
    expect(preview).toEqual({
      kind: 'diff',
      path: 'app.ts',
      created: false,
      diff: '--- a/app.ts\n+++ b/app.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n const c = 1;\n',
    });
    const result = await edit('b = 2', 'b = 3');
    expect(result.output).toBe('Edited app.ts.');
    expect(result.metadata?.diff).toBe(preview?.diff);
    expect(await readFile(file(), 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst c = 1;\n');
  });

  it('treats $ patterns in the new text literally', async () => {
    await edit('b = 2', "b = '$&$1'");
    expect(await readFile(file(), 'utf8')).toContain("const b = '$&$1';");
  });

  it('refuses when `old` does not occur, leaving the file as it was', async () => {
    const error = await failure('d = 4');
    expect(error?.code).toBe('invalid_input');
    expect(error?.message).toMatch(/not found in app\.ts/);
    expect(await readFile(file(), 'utf8')).toBe('const a = 1;\nconst b = 2;\nconst c = 1;\n');
  });

  it('refuses when `old` occurs twice, saying how often', async () => {
    const error = await failure(' = 1;');
    expect(error).toBeInstanceOf(ToolError);
    expect(error?.code).toBe('invalid_input');
    expect(error?.message).toMatch(/occurs 2 times in app\.ts/);
    expect(await readFile(file(), 'utf8')).toBe('const a = 1;\nconst b = 2;\nconst c = 1;\n');
  });

  it('counts overlapping occurrences as ambiguous', () => {
    expect(countOccurrences('aaa', 'aa')).toBe(2);
    expect(countOccurrences('abc', 'b')).toBe(1);
  });

  it('reports a missing file', async () => {
    const error = await editFileTool
      .execute({ path: 'nope.ts', old: 'a', new: 'b' }, toolContext(t.workspace))
      .catch((e: unknown) => e);
    expect((error as ToolError).code).toBe('not_found');
  });
});
