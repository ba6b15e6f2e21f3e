// File access on paths already confined by resolveWorkspacePath. Files are opened by their real
// path with O_NOFOLLOW, and the opened descriptor is checked again (via /proc where there is
// one), so a symlink swapped in after the check cannot redirect a read or a write outside.
// A hard link cannot be told from the file it links to: a regular file with more than one name
// may be a file outside the workspace, so it is never written (and read only with approval).
import { constants, type FileHandle, lstat, mkdir, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../types';
import { fsToolError, type WorkspacePath } from './workspace-path';

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

export interface TextFile {
  text: string;
  /** Size of the whole file in bytes. */
  size: number;
  truncated: boolean;
  /** Its number of hard links (names): more than one may mean a file outside the workspace. */
  links: number;
}

/** Why a file with several hard links is treated with suspicion, for the error or the approval. */
export function hardLinksNote(rel: string, links: number): string {
  return `${rel} has ${links} hard links, so it may be a file outside the workspace`;
}

/** The hard links of an existing regular file (undefined for anything else, or a missing path). */
export async function hardLinks(target: WorkspacePath): Promise<number | undefined> {
  try {
    const stats = await lstat(target.real);
    return stats.isFile() ? stats.nlink : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a regular file as UTF-8 text. With `onLarger: 'truncate'` at most `maxBytes` are read;
 * with `'refuse'` a larger file is a `too_large` error. Binary-looking files are refused.
 */
export async function readTextFile(
  target: WorkspacePath,
  maxBytes: number,
  onLarger: 'truncate' | 'refuse',
): Promise<TextFile> {
  // O_NONBLOCK: opening a FIFO someone planted in the workspace must not hang the tool.
  const handle = await openChecked(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new ToolError('invalid_input', `${target.rel} is a directory, not a file.`);
    if (!stats.isFile()) throw new ToolError('refused', `${target.rel} is not a regular file.`);
    if (stats.size > maxBytes && onLarger === 'refuse') {
      throw new ToolError('too_large', `${target.rel} is ${stats.size} bytes, over the ${maxBytes}-byte limit.`);
    }
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = buffer.subarray(0, filled);
    const truncated = stats.size > filled;
    const text = decodeText(bytes, truncated);
    if (text === undefined) {
      throw new ToolError('refused', `${target.rel} looks like a binary file (${stats.size} bytes); not shown.`);
    }
    return { text, size: stats.size, truncated, links: stats.nlink };
  } catch (error) {
    throw fsToolError(error, target.rel);
  } finally {
    await handle.close();
  }
}

/** Undefined for binary-looking bytes: a NUL early on, or invalid UTF-8. */
function decodeText(bytes: Uint8Array, cut: boolean): string | undefined {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return undefined;
  try {
    // When cut, a partial last character is held back by stream mode instead of failing.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    return undefined;
  }
}

/** Writes `content` to the file, creating it (and, if asked, its parent directories). */
export async function writeTextFile(target: WorkspacePath, content: string, createParents: boolean): Promise<void> {
  try {
    if (createParents) await mkdir(path.dirname(target.real), { recursive: true });
  } catch (error) {
    throw fsToolError(error, path.dirname(target.rel));
  }
  // No O_TRUNC: the file is emptied only after the descriptor has been checked, so a lost race
  // can at worst create an empty file, never clobber one outside the workspace.
  const handle = await openChecked(target, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ToolError('refused', `${target.rel} is not a regular file.`);
    // Checked on the opened descriptor: a link made after an earlier check is caught here.
    if (stats.nlink > 1)
      throw new ToolError('refused', `refusing to write: ${hardLinksNote(target.rel, stats.nlink)}.`);
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } catch (error) {
    throw fsToolError(error, target.rel);
  } finally {
    await handle.close();
  }
}

async function openChecked(target: WorkspacePath, flags: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(target.real, flags | constants.O_NOFOLLOW, 0o666);
  } catch (error) {
    throw fsToolError(error, target.rel);
  }
  const opened = await openedPath(handle);
  if (opened !== undefined && opened !== target.real) {
    await handle.close();
    throw new ToolError(
      'outside_workspace',
      `Path "${target.rel}" changed while being opened (now ${opened}); refused.`,
    );
  }
  return handle;
}

/** Where the descriptor really points, on systems with /proc; undefined elsewhere. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}
