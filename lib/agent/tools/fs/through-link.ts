// The policy decides on the path as written; the file tools act on its real path. When the two
// differ, a symlink on the way names another file (perhaps one a deny rule names: `notes.txt`
// -> `.env`), so the call is one a person must see: `inspect` asks with this note, and an
// execution that was not approved refuses (checked again then: a link made after the decision
// is caught too). Record 0007 does the same for hard links.
import path from 'node:path';
import { ToolError } from '../types';
import { resolveWorkspacePath, type WorkspacePath } from './workspace-path';

/** Why acting on `input` acts on another file than the one it names, if it does. */
export function throughLinkNote(target: WorkspacePath, input: string): string | undefined {
  const written = path.resolve(target.root, input);
  if (written === target.real) return undefined;
  return `${input} goes through a symbolic link to ${target.rel}, which the policy did not decide on`;
}

/** The `inspect` of a file tool: the note, for a path that resolves. */
export async function inspectThroughLink(workspace: string, input: string): Promise<string | undefined> {
  try {
    return throughLinkNote(await resolveWorkspacePath(workspace, input), input);
  } catch {
    return undefined; // an unusable path: execute reports it
  }
}

/** At execution: a call through a link goes on only if a person approved it. */
export function refuseThroughLink(target: WorkspacePath, input: string, approved: boolean | undefined): void {
  const note = throughLinkNote(target, input);
  if (note !== undefined && approved !== true) throw new ToolError('refused', `refusing without approval: ${note}.`);
}
