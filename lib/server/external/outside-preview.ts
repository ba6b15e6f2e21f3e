// The preview an outside agent's call shows its approver, made from the call alone. The CLI acts on
// its own machine, which need not be the server's, and the hook's `cwd` is the caller's word: a
// preview read from the server's files (a write's diff against the file there) would show any file
// the server can read to whoever sends a hook call. So an edit shows its own `old` -> `new`, and a
// call that carries no such pair (a whole file written) shows none: its parameters say it all.
import type { DiffPreview } from '../../agent/tools/types';
import { unifiedDiff } from '../../agent/tools/diff/unified-diff';

/** Beyond this (old and new together) the diff is not worth its time: the parameters show the text. */
const MAX_PREVIEW_CHARS = 100_000;

export function outsidePreview(tool: string, params: Record<string, unknown>): DiffPreview | undefined {
  const { path, old, new: replacement } = params;
  if (tool !== 'edit_file' || typeof path !== 'string' || typeof old !== 'string' || typeof replacement !== 'string')
    return undefined;
  if (old.length + replacement.length > MAX_PREVIEW_CHARS) return undefined;
  const shown = path.replace(/^\/+/, '');
  // Line numbers are not known without the file: each hunk says where it lands instead.
  const where = params.replace_all === true ? 'every occurrence in the file' : 'its one place in the file';
  const diff = unifiedDiff(shown, old, replacement).replace(/^@@ [^\n]*? @@/gm, `@@ ${where} @@`);
  return { kind: 'diff', path: shown, diff, created: false };
}
