// Unified diff of two texts (`--- a/<path>` / `+++ b/<path>`, 3 lines of context), as shown to
// the human before a write is approved. It must describe exactly the bytes that will be
// written: line endings are part of the compared lines and a missing final newline is marked.
import { diffLines, type DiffOp } from './line-diff';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

export function unifiedDiff(relPath: string, before: string, after: string): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  const header = `--- a/${relPath}\n+++ b/${relPath}\n`;
  return header + hunks(ops).join('');
}

/** Lines with their terminators, so `x` and `x\n` differ as they do on disk. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

interface Positioned extends DiffOp {
  /** Old lines before this op. */
  oldIndex: number;
  /** New lines before this op. */
  newIndex: number;
}

function hunks(ops: DiffOp[]): string[] {
  const positioned: Positioned[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  for (const op of ops) {
    positioned.push({ ...op, oldIndex, newIndex });
    if (op.kind !== 'insert') oldIndex++;
    if (op.kind !== 'delete') newIndex++;
  }
  const changes = positioned.flatMap((op, i) => (op.kind === 'equal' ? [] : [i]));
  const out: string[] = [];
  let i = 0;
  while (i < changes.length) {
    const start = Math.max(0, changes[i]! - CONTEXT);
    let last = changes[i]!;
    // Changes whose contexts touch or overlap share one hunk.
    while (i + 1 < changes.length && changes[i + 1]! - last <= 2 * CONTEXT + 1) last = changes[++i]!;
    const end = Math.min(positioned.length, last + CONTEXT + 1);
    out.push(formatHunk(positioned.slice(start, end)));
    i++;
  }
  return out;
}

function formatHunk(ops: Positioned[]): string {
  const first = ops[0]!;
  const oldCount = ops.filter((op) => op.kind !== 'insert').length;
  const newCount = ops.filter((op) => op.kind !== 'delete').length;
  // An empty range names the line before it (`-0,0` for a new file), as diff(1) does.
  const oldStart = oldCount === 0 ? first.oldIndex : first.oldIndex + 1;
  const newStart = newCount === 0 ? first.newIndex : first.newIndex + 1;
  const prefix = { equal: ' ', delete: '-', insert: '+' } as const;
  const body = ops.map((op) =>
    op.line.endsWith('\n') ? `${prefix[op.kind]}${op.line}` : `${prefix[op.kind]}${op.line}\n${NO_NEWLINE}\n`,
  );
  return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n${body.join('')}`;
}
