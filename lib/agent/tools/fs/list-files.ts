// list_files: the entries of one workspace directory, sorted, one per line, directories with a
// trailing `/`. Paths are workspace-relative so they can be passed straight to the other tools.
import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError, type ToolDefinition } from '../types';
import { fsToolError, isCode, resolveWorkspacePath } from './workspace-path';

export const LIST_FILES_MAX_ENTRIES = 1000;

const inputSchema = z.object({
  // A default, not optional: the gate then sees the directory that will really be listed.
  path: z
    .string()
    .min(1)
    .default('.')
    .describe('Directory, relative to the workspace (default: the workspace itself).'),
});
export type ListFilesInput = z.infer<typeof inputSchema>;

export const listFilesTool: ToolDefinition<ListFilesInput> = {
  name: 'list_files',
  description: `List the entries of a directory in the workspace (not recursive), sorted; directories end with \`/\`. At most ${LIST_FILES_MAX_ENTRIES} entries.`,
  inputSchema,
  risk: 'read_only',
  paramKinds: { path: 'path' },
  async execute(input, ctx) {
    const target = await resolveWorkspacePath(ctx.workspace, input.path);
    const names: string[] = [];
    let total = 0;
    try {
      for await (const entry of await opendir(target.real)) {
        total++;
        // Names are collected in full (they are small) so that sorting sees them all.
        names.push(
          entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path.join(target.real, entry.name))))
            ? `${entry.name}/`
            : entry.name,
        );
      }
    } catch (error) {
      if (isCode(error, 'ENOTDIR'))
        throw new ToolError('invalid_input', `${target.rel} is not a directory; use read_file.`);
      throw fsToolError(error, target.rel);
    }
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const prefix = target.rel === '.' ? '' : `${target.rel}/`;
    const shown = names.slice(0, LIST_FILES_MAX_ENTRIES).map((name) => prefix + name);
    const truncated = total > shown.length;
    const lines = shown.length === 0 ? [`(${target.rel} is empty)`] : shown;
    if (truncated) lines.push(`[output truncated: ${total} entries, first ${shown.length} shown]`);
    return {
      output: lines.join('\n'),
      ...(truncated ? { truncated: true } : {}),
      metadata: { path: target.rel, entries: total },
    };
  },
};

/** Whether a symlink leads to a directory; its target may be outside, but only its kind is shown. */
async function isDirectory(absolute: string): Promise<boolean> {
  try {
    return (await stat(absolute)).isDirectory();
  } catch {
    return false;
  }
}
