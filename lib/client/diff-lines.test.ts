import { describe, expect, it } from 'vitest';
import { diffLines } from './diff-lines';

// A unified diff as lib/agent/tools/diff/unified-diff.ts writes it: the `---`/`+++` file header,
// then hunks. Inside a hunk the first character alone says what a line is, so a written line that
// itself starts with `++` or `--` is an added or removed line, never grey header text, and counts.
const diff = [
  '--- a/deploy.sh',
  '+++ b/deploy.sh',
  '@@ -1,2 +1,4 @@',
  ' #!/bin/sh',
  '+++ b/harmless.txt',
  '+echo ok',
  '--- a/old-line',
  ' exit 0',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('diff lines inside a hunk are judged by their first character only', () => {
  it('classifies the header, the hunk, and content lines that look like headers', () => {
    expect(diffLines(diff).lines.map((l) => l.kind)).toEqual([
      'meta',
      'meta',
      'hunk',
      'context',
      'add',
      'add',
      'del',
      'context',
      'meta',
    ]);
  });

  it('counts a written line starting with "++" as added and one starting with "--" as removed', () => {
    const { added, removed } = diffLines(diff);
    expect(added).toBe(2);
    expect(removed).toBe(1);
  });

  it('a content line starting with "@@" inside a hunk is content, not a new hunk', () => {
    const { lines } = diffLines('--- a/x\n+++ b/x\n@@ -0,0 +1,1 @@\n+@@ -1 +1 @@\n');
    expect(lines.at(-1)).toEqual({ kind: 'add', text: '+@@ -1 +1 @@' });
  });
});
