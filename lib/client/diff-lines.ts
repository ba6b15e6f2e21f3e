// The lines of a unified diff (a file write's or edit's preview) with what each one is, and how
// many lines it adds and removes. `---`/`+++` are the file header only before the first hunk:
// inside a hunk the first character alone decides, so a written line that itself starts with `++`
// (`+++ b/x` in the diff) is an added line, shown and counted as one, never grey header text.

type DiffLineKind = 'meta' | 'hunk' | 'add' | 'del' | 'context';

interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

function kindOf(line: string, inHunk: boolean): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (!inHunk) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('\\')) return 'meta';
  return 'context';
}

export function diffLines(diff: string): { lines: DiffLine[]; added: number; removed: number } {
  let inHunk = false;
  const lines = diff
    .replace(/\n$/, '')
    .split('\n')
    .map((text) => {
      const kind = kindOf(text, inHunk);
      if (kind === 'hunk') inHunk = true;
      return { kind, text };
    });
  return {
    lines,
    added: lines.filter((l) => l.kind === 'add').length,
    removed: lines.filter((l) => l.kind === 'del').length,
  };
}
