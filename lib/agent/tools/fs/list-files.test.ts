import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_FILES_MAX_ENTRIES, listFilesTool } from './list-files';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import { ToolError } from '../types';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

// Through the schema, as the agent loop calls it: a missing path becomes the workspace itself.
const list = (p?: string) =>
  listFilesTool.execute(listFilesTool.inputSchema.parse(p === undefined ? {} : { path: p }), toolContext(t.workspace));

describe('list_files', () => {
  it('lists the workspace by default, sorted, directories with a trailing slash', async () => {
    await mkdir(path.join(t.workspace, 'src'));
    await writeFile(path.join(t.workspace, 'b.txt'), '');
    await writeFile(path.join(t.workspace, '.env'), '');
    await symlink('src', path.join(t.workspace, 'src-link'));
    expect((await list()).output).toBe('.env\nb.txt\nsrc-link/\nsrc/');
  });

  it('gives workspace-relative paths for a subdirectory', async () => {
    await mkdir(path.join(t.workspace, 'src', 'lib'), { recursive: true });
    await writeFile(path.join(t.workspace, 'src', 'a.ts'), '');
    expect((await list('src')).output).toBe('src/a.ts\nsrc/lib/');
    expect((await list('src/lib')).output).toBe('(src/lib is empty)');
  });

  it('caps the number of entries and says so', async () => {
    await Promise.all(
      Array.from({ length: LIST_FILES_MAX_ENTRIES + 5 }, (_, i) =>
        writeFile(path.join(t.workspace, `f${String(i).padStart(4, '0')}`), ''),
      ),
    );
    const result = await list();
    const lines = result.output.split('\n');
    expect(result.truncated).toBe(true);
    expect(lines).toHaveLength(LIST_FILES_MAX_ENTRIES + 1);
    expect(lines.at(-1)).toBe(
      `[output truncated: ${LIST_FILES_MAX_ENTRIES + 5} entries, first ${LIST_FILES_MAX_ENTRIES} shown]`,
    );
  });

  it('refuses a file or a missing directory as a tool error', async () => {
    await writeFile(path.join(t.workspace, 'a.txt'), '');
    expect(((await list('a.txt').catch((e: unknown) => e)) as ToolError).code).toBe('invalid_input');
    expect(((await list('missing').catch((e: unknown) => e)) as ToolError).code).toBe('not_found');
  });
});
