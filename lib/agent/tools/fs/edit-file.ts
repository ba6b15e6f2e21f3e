// edit_file: replaces one exact occurrence of `old` with `new` in a workspace text file. `old`
// must occur exactly once, so the edit can never land somewhere the model did not mean.
import { z } from 'zod';
import { hardLinksNote, readTextFile, writeTextFile } from './confined-fs';
import { ToolError, type DiffPreview, type ToolDefinition } from '../types';
import { unifiedDiff } from '../diff/unified-diff';
import { inspectThroughLink, refuseThroughLink } from './through-link';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path';

export const EDIT_FILE_MAX_BYTES = 2 * 1024 * 1024;

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace.'),
  old: z.string().min(1).describe('Exact text to replace; must occur exactly once in the file.'),
  new: z.string().describe('Replacement text.'),
});
export type EditFileInput = z.infer<typeof inputSchema>;

/** Occurrences of `needle`, overlapping ones included: `aa` occurs twice in `aaa`, which is ambiguous. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

async function plan(
  input: EditFileInput,
  workspace: string,
): Promise<{ target: WorkspacePath; after: string; preview: DiffPreview }> {
  const target = await resolveWorkspacePath(workspace, input.path);
  const { text: before, links } = await readTextFile(target, EDIT_FILE_MAX_BYTES, 'refuse');
  // Refused before a diff is made: the preview would show another file's content.
  if (links > 1) throw new ToolError('refused', `refusing to edit: ${hardLinksNote(target.rel, links)}.`);
  const count = countOccurrences(before, input.old);
  if (count === 0)
    throw new ToolError('invalid_input', `edit_file: \`old\` was not found in ${target.rel}; nothing changed.`);
  if (count > 1) {
    throw new ToolError(
      'invalid_input',
      `edit_file: \`old\` occurs ${count} times in ${target.rel}; include more surrounding text so it occurs exactly once. Nothing changed.`,
    );
  }
  const at = before.indexOf(input.old);
  // Slicing, not String.replace: `$&` and friends in the new text must stay literal.
  const after = before.slice(0, at) + input.new + before.slice(at + input.old.length);
  return {
    target,
    after,
    preview: { kind: 'diff', path: target.rel, diff: unifiedDiff(target.rel, before, after), created: false },
  };
}

export const editFileTool: ToolDefinition<EditFileInput> = {
  name: 'edit_file',
  description:
    'Replace one exact occurrence of `old` with `new` in a UTF-8 text file in the workspace. `old` must occur exactly once.',
  inputSchema,
  risk: 'write',
  paramKinds: { path: 'path' },
  inspect: (input, env) => inspectThroughLink(env.workspace, input.path),
  async preview(input, env) {
    return (await plan(input, env.workspace)).preview;
  },
  async execute(input, ctx) {
    const { target, after, preview } = await plan(input, ctx.workspace);
    refuseThroughLink(target, input.path, ctx.approved);
    await writeTextFile(target, after, false);
    return {
      output: `Edited ${target.rel}.`,
      metadata: { path: target.rel, bytes: Buffer.byteLength(after, 'utf8'), diff: preview.diff },
    };
  },
};
