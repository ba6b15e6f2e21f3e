// Percentiles and the aligned tables the gate benchmark prints.

export function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
export const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
export const pair = (xs: number[]): string => `${ms(pct(xs, 50))} / ${ms(pct(xs, 99))}`;
export const mb = (x: number): string => x.toFixed(1);
export const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** The first `left` columns left-aligned (labels), the others right-aligned, two spaces apart, under a dashed rule. */
export function table(head: string[], rows: string[][], left = 1): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    '  ' + cells.map((c, i) => (i < left ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
