// Workspace confinement for the file tools. A path is resolved against the workspace and its
// symlinks are followed (for a path that does not exist yet: the real path of its longest
// existing ancestor, dangling links included) before anything touches it; the tools then act on
// that real path only, and anything whose real path leaves the workspace is refused.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../types';

export interface WorkspacePath {
  /** Absolute real path (symlinks resolved); the file itself may not exist yet. */
  real: string;
  /** The real path relative to the workspace (`.` for the workspace itself), for output. */
  rel: string;
  /** The real workspace root. */
  root: string;
}

/** Symlink hops followed by hand before giving up, like the kernel's ELOOP limit. */
const MAX_LINK_HOPS = 40;

export async function resolveWorkspacePath(workspace: string, input: string): Promise<WorkspacePath> {
  if (input.includes('\0')) throw new ToolError('invalid_input', 'Path contains a NUL byte.');
  // lib/policy expands `~` to a home directory the tools do not know; acting on another file
  // than the one the policy decided on would be worse than refusing.
  if (input === '~' || input.startsWith('~/')) {
    throw new ToolError('invalid_input', `Path "${input}": \`~\` is not expanded; use a workspace-relative path.`);
  }
  // The environment promises a real path; resolving again costs little and keeps a misconfigured
  // workspace from refusing (or, worse, admitting) the wrong things.
  let root: string;
  try {
    root = await realpath(workspace);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError('failed', `The workspace ${workspace} is not usable: ${message}`);
  }
  let real: string;
  try {
    real = await realpathLoose(path.resolve(root, input), 0);
  } catch (error) {
    throw fsToolError(error, input);
  }
  const rel = path.relative(root, real);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new ToolError('outside_workspace', `Path "${input}" resolves to ${real}, which is outside the workspace.`);
  }
  return { real, rel: rel === '' ? '.' : rel, root };
}

/** Like realpath, but for a path that need not exist: missing tails are appended to the real ancestor. */
async function realpathLoose(absolute: string, hops: number): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (error) {
    if (!isCode(error, 'ENOENT') && !isCode(error, 'ENOTDIR')) throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const candidate = path.join(await realpathLoose(parent, hops), path.basename(absolute));
  let stats;
  try {
    stats = await lstat(candidate);
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return candidate;
    throw error;
  }
  // A dangling symlink: writing to it would create its target, so the target is what counts.
  if (stats.isSymbolicLink()) {
    if (hops >= MAX_LINK_HOPS) throw new ToolError('refused', `Too many levels of symbolic links at ${candidate}.`);
    const target = await readlink(candidate);
    return realpathLoose(path.resolve(path.dirname(candidate), target), hops + 1);
  }
  return candidate;
}

export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Turns an fs error into the tool error the model sees, naming the workspace-relative path. */
export function fsToolError(error: unknown, rel: string): ToolError {
  if (error instanceof ToolError) return error;
  if (isCode(error, 'ENOENT')) return new ToolError('not_found', `${rel}: no such file or directory.`);
  if (isCode(error, 'ENOTDIR'))
    return new ToolError('invalid_input', `${rel}: a parent of this path is not a directory.`);
  if (isCode(error, 'EISDIR')) return new ToolError('invalid_input', `${rel} is a directory.`);
  if (isCode(error, 'EACCES') || isCode(error, 'EPERM')) return new ToolError('refused', `${rel}: permission denied.`);
  // A symlink loop, or (O_NOFOLLOW) a final component that became a symlink after the check.
  if (isCode(error, 'ELOOP'))
    return new ToolError('refused', `${rel}: unexpected or looping symbolic link; not followed.`);
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError('failed', `${rel}: ${message}`);
}
