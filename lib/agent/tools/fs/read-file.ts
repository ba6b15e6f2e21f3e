// read_file: a text file from the workspace, capped in size; binary files are refused. A file
// with several hard links may be a file outside the workspace: reading it always asks a person
// (`inspect`), and it is read only if a person approved (checked again on the opened file); so
// is a path that goes through a symbolic link (through-link.ts).
import { z } from 'zod';
import { hardLinks, hardLinksNote, readTextFile } from './confined-fs';
import { truncationMarker } from '../truncate';
import { ToolError, type ToolDefinition } from '../types';
import { refuseThroughLink, throughLinkNote } from './through-link';
import { resolveWorkspacePath } from './workspace-path';

export const READ_FILE_MAX_BYTES = 256 * 1024;

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace.'),
});
export type ReadFileInput = z.infer<typeof inputSchema>;

export const readFileTool: ToolDefinition<ReadFileInput> = {
  name: 'read_file',
  description: `Read a UTF-8 text file in the workspace. Files over ${READ_FILE_MAX_BYTES / 1024} KiB are cut (marked); binary files are refused.`,
  inputSchema,
  risk: 'read_only',
  paramKinds: { path: 'path' },
  async inspect(input, env) {
    try {
      const target = await resolveWorkspacePath(env.workspace, input.path);
      const linked = throughLinkNote(target, input.path);
      if (linked !== undefined) return `${linked}; reading it is never allowed automatically`;
      const links = await hardLinks(target);
      return links !== undefined && links > 1
        ? `${hardLinksNote(target.rel, links)}; reading it is never allowed automatically`
        : undefined;
    } catch {
      return undefined; // an unusable path: execute reports it
    }
  },
  async execute(input, ctx) {
    const target = await resolveWorkspacePath(ctx.workspace, input.path);
    refuseThroughLink(target, input.path, ctx.approved);
    const file = await readTextFile(target, READ_FILE_MAX_BYTES, 'truncate');
    if (file.links > 1 && ctx.approved !== true) {
      throw new ToolError('refused', `refusing to read without approval: ${hardLinksNote(target.rel, file.links)}.`);
    }
    return {
      output: file.truncated ? file.text + truncationMarker(file.size) : file.text,
      ...(file.truncated ? { truncated: true } : {}),
      metadata: { path: target.rel, bytes: file.size },
    };
  },
};
