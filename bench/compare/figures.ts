// The figures of a benchmark's printed output, and their comparison across runs of two builds.
// Pure. A figure is a number in one of the aligned tables the benches print (a header line, a
// rule of dashes, rows until a blank line): named `<section> <row> · <column>`, where the section
// is the `(a)`-style tag of the heading above the table (or the heading up to its colon), so the
// same figure has the same name in an older commit's output even if the heading's text changed.

export type Figures = Map<string, number>;

const NUMBER = /^[x×]?(-?\d[\d,]*(?:\.\d+)?)\s*(?:x|×|%|ms|us|µs|s|MB|KB)?$/;

/** A cell's number ("107,938", "5.81", "x1.00", "258.7x", "12%"), or undefined for anything else. */
export function parseNumber(cell: string): number | undefined {
  const match = NUMBER.exec(cell.trim());
  if (!match) return undefined;
  const value = Number(match[1]!.replaceAll(',', ''));
  return Number.isFinite(value) ? value : undefined;
}

/** Where each column lies, from the rule line under the header ("-----  ---  ------"). */
function columns(rule: string): Array<[number, number]> | undefined {
  if (!/^\s*-+(\s{2,}-+)*\s*$/.test(rule)) return undefined;
  return [...rule.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length]);
}

function sectionOf(heading: string): string {
  const text = heading.trim();
  const tag = /^\(([\w.-]+)\)/.exec(text);
  if (tag) return `(${tag[1]})`;
  return text.split(':')[0]!.slice(0, 60).trim();
}

function cellsOf(line: string, spans: Array<[number, number]>): string[] {
  // A cell runs from its column's start to the next column's start: a value wider than the rule
  // (it never is, but a hand-made table could) still lands in its own column.
  return spans.map(([start], i) => line.slice(start, i + 1 < spans.length ? spans[i + 1]![0] : undefined).trim());
}

/** Every number of every table in `output`, by figure name (a repeated name gets ` #2`, ` #3`...). */
export function parseFigures(output: string): Figures {
  const lines = output.split(/\r?\n/);
  const figures: Figures = new Map();
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const spans = i > 0 ? columns(line) : undefined;
    if (!spans || spans.length < 2) {
      // Headings are the unindented lines; tables and notes are indented.
      if (line.trim() && !/^\s/.test(line)) heading = line;
      continue;
    }
    const head = cellsOf(lines[i - 1]!, spans);
    const section = sectionOf(heading);
    for (i = i + 1; i < lines.length && lines[i]!.trim() !== ''; i++) {
      const cells = cellsOf(lines[i]!, spans);
      const label = parseNumber(cells[0]!) !== undefined && head[0] ? `${head[0]} ${cells[0]}` : cells[0]!;
      cells.forEach((cell, c) => {
        if (c === 0) return;
        const value = parseNumber(cell);
        if (value === undefined) return;
        const base = `${section ? `${section} ` : ''}${label} · ${head[c] || `column ${c + 1}`}`;
        let name = base;
        for (let n = 2; figures.has(name); n++) name = `${base} #${n}`;
        figures.set(name, value);
      });
    }
  }
  return figures;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Higher is better for rates (a column per second); lower for everything else the benches print (times, sizes). */
export const higherIsBetter = (name: string) => /\/s\b|per second/i.test(name.split(' · ').at(-1) ?? '');

export interface FigureComparison {
  name: string;
  a: number[];
  b: number[];
  medianA: number;
  medianB: number;
  /** medianB / medianA. */
  ratio: number;
  higherIsBetter: boolean;
  /**
   * `above` / `below` when every run of B is above / below every run of A (with 5 runs each, a
   * chance of 1 in 252 each way if nothing changed), else `overlap`: noise cannot be told
   * from a change.
   */
  ranges: 'above' | 'below' | 'overlap';
}

function rangesOf(a: readonly number[], b: readonly number[]): FigureComparison['ranges'] {
  if (Math.min(...b) > Math.max(...a)) return 'above';
  if (Math.max(...b) < Math.min(...a)) return 'below';
  return 'overlap';
}

/**
 * Each figure's medians over the runs of A and of B, in the order of the first output. Figures
 * missing from every run of one side are left out, and so are constants (the same value in every
 * run of both: a rule count, a sample size) unless `all`; `only` keeps the names it matches.
 */
export function compareFigures(
  runsA: readonly Figures[],
  runsB: readonly Figures[],
  { all = false, only }: { all?: boolean; only?: RegExp } = {},
): FigureComparison[] {
  const names = new Set<string>();
  for (const run of [...runsA, ...runsB]) for (const name of run.keys()) names.add(name);
  const out: FigureComparison[] = [];
  for (const name of names) {
    if (only && !only.test(name)) continue;
    const a = runsA.flatMap((run) => (run.has(name) ? [run.get(name)!] : []));
    const b = runsB.flatMap((run) => (run.has(name) ? [run.get(name)!] : []));
    if (a.length === 0 || b.length === 0) continue;
    if (!all && [...a, ...b].every((x) => x === a[0])) continue;
    const medianA = median(a);
    const medianB = median(b);
    out.push({
      name,
      a,
      b,
      medianA,
      medianB,
      ratio: medianB / medianA,
      higherIsBetter: higherIsBetter(name),
      ranges: rangesOf(a, b),
    });
  }
  return out;
}

const fmt = (x: number) =>
  !Number.isFinite(x)
    ? '-'
    : Math.abs(x) >= 1000
      ? Math.round(x).toLocaleString('en-US')
      : Number(x.toPrecision(4)).toString();

/** The comparison as an aligned table: medians, B/A, each side's range, and whether the ranges are apart. */
export function formatComparison(rows: readonly FigureComparison[]): string {
  const head = ['figure', 'A median', 'B median', 'B/A', 'A min-max', 'B min-max', 'B runs vs A runs'];
  const body = rows.map((r) => [
    `${r.name}${r.higherIsBetter ? ' (higher is better)' : ''}`,
    fmt(r.medianA),
    fmt(r.medianB),
    Number.isFinite(r.ratio) ? r.ratio.toFixed(3) : '-',
    `${fmt(Math.min(...r.a))}-${fmt(Math.max(...r.a))}`,
    `${fmt(Math.min(...r.b))}-${fmt(Math.max(...r.b))}`,
    r.ranges === 'overlap' ? 'overlap' : `all ${r.ranges}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
