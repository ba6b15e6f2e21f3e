// write_file: creates or overwrites a text file in the workspace (parent directories included).
// The preview is the unified diff of exactly what the write changes.
import { z } from 'zod';
import { hardLinksNote, readTextFile, writeTextFile } from './confined-fs';
import { ToolError, type DiffPreview, type ToolDefinition } from '../types';
import { unifiedDiff } from '../diff/unified-diff';
import { inspectThroughLink, refuseThroughLink } from './through-link';
import { isCode, resolveWorkspacePath, type WorkspacePath } from './workspace-path';

/** Existing files above this size are not diffed (or overwritten): a preview must stay readable. */
export const WRITE_FILE_MAX_EXISTING_BYTES = 2 * 1024 * 1024;

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace.'),
  content: z.string().describe('The complete new content of the file.'),
});
export type WriteFileInput = z.infer<typeof inputSchema>;

/** The current content, or undefined when the file does not exist yet. */
async function currentContent(target: WorkspacePath): Promise<string | undefined> {
  let file;
  try {
    file = await readTextFile(target, WRITE_FILE_MAX_EXISTING_BYTES, 'refuse');
  } catch (error) {
    if (error instanceof ToolError && error.code === 'not_found') return undefined;
    if (isCode(error, 'ENOENT')) return undefined;
    // Binary or huge: there is no diff to show the human, so no overwrite either.
    if (error instanceof ToolError && (error.code === 'refused' || error.code === 'too_large')) {
      throw new ToolError(
        error.code,
        `write_file only replaces text files up to ${WRITE_FILE_MAX_EXISTING_BYTES / (1024 * 1024)} MiB: ${error.message}`,
      );
    }
    throw error;
  }
  // Refused before a diff is made: the preview would show another file's content.
  if (file.links > 1) throw new ToolError('refused', `refusing to write: ${hardLinksNote(target.rel, file.links)}.`);
  return file.text;
}

async function plan(
  input: WriteFileInput,
  workspace: string,
): Promise<{ target: WorkspacePath; preview: DiffPreview }> {
  const target = await resolveWorkspacePath(workspace, input.path);
  const before = await currentContent(target);
  return {
    target,
    preview: {
      kind: 'diff',
      path: target.rel,
      diff: unifiedDiff(target.rel, before ?? '', input.content),
      created: before === undefined,
    },
  };
}

export const writeFileTool: ToolDefinition<WriteFileInput> = {
  name: 'write_file',
  description:
    'Create or overwrite a UTF-8 text file in the workspace with the given content; missing parent directories are created.',
  inputSchema,
  risk: 'write',
  paramKinds: { path: 'path' },
  inspect: (input, env) => inspectThroughLink(env.workspace, input.path),
  async preview(input, env) {
    return (await plan(input, env.workspace)).preview;
  },
  async execute(input, ctx) {
    const { target, preview } = await plan(input, ctx.workspace);
    refuseThroughLink(target, input.path, ctx.approved);
    await writeTextFile(target, input.content, true);
    const bytes = Buffer.byteLength(input.content, 'utf8');
    return {
      output: `${preview.created ? 'Created' : 'Wrote'} ${target.rel} (${bytes} bytes).`,
      metadata: { path: target.rel, bytes, created: preview.created, diff: preview.diff },
    };
  },
};
