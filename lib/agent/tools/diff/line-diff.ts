// Line diff (Myers' O(ND) algorithm) for the write previews. The common head and tail are
// trimmed first, so the usual edit costs almost nothing; beyond MAX_EDITS the middle is shown
// as one replaced block, which is still exactly the change, only less minimal.

export type DiffOp = { kind: 'equal' | 'delete' | 'insert'; line: string };

const MAX_EDITS = 1000;

export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  return [
    ...a.slice(0, head).map((line) => ({ kind: 'equal' as const, line })),
    ...(myers(middleA, middleB) ?? replaceAll(middleA, middleB)),
    ...a.slice(a.length - tail).map((line) => ({ kind: 'equal' as const, line })),
  ];
}

function replaceAll(a: readonly string[], b: readonly string[]): DiffOp[] {
  return [
    ...a.map((line) => ({ kind: 'delete' as const, line })),
    ...b.map((line) => ({ kind: 'insert' as const, line })),
  ];
}

/** Shortest edit script, or undefined when it needs more than MAX_EDITS edits. */
function myers(a: readonly string[], b: readonly string[]): DiffOp[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return replaceAll(a, b);
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] keeps V for diagonals -d-1..d+1 as it was before step d: O(D^2) memory, not O(D(N+M)).
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[]): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const snapshot = trace[d]!;
    const at = (k: number) => snapshot[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: 'equal', line: a[--x]! });
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: 'insert', line: b[--y]! });
      else ops.push({ kind: 'delete', line: a[--x]! });
    }
  }
  return ops.reverse();
}
