import { describe, expect, it } from 'vitest';
import { compareFigures, formatComparison, median, parseFigures, parseNumber } from './figures';

// Shaped like bench:policy's output (bench/policy.bench.ts), trimmed.
const OUTPUT = `Gatehouse policy benchmark
  node v20.20.2, linux/x64
  Method: per case, warm-up first (300 ms), then samples.

(a) 200-rule policy: 40 tool names + 8 tool globs; 258 rotating non-shell calls
    decision mix of the call set: allow/matched_rule 65
  case                                        rules  samples x batch  p50 us  p99 us  mean us  decisions/s
  ------------------------------------------  -----  ---------------  ------  ------  -------  -----------
  compiled policy                               200        1002 x 32    5.81   139.7     9.26      107,938
  raw policy object (no compilePolicy; info)    200        1231 x 32    6.23    36.1     7.69      129,979

(c) scaling: synthetic policies, 25 fixed calls
  rules   calls hit a rule  p50 us  p99 us  decisions/s  p50 vs 10  compilePolicy ms (median)
  ------  ----------------  ------  ------  -----------  ---------  -------------------------
  10                  7/25    3.77    6.50      252,990      x1.00                       0.30
  1,000              15/25    13.4    22.4       71,294      x3.55                      15.83

Summary
  MISS  (a) 200-rule policy, non-shell calls: p50 5.81 us (target <= 5 us)
`;

describe('parseNumber', () => {
  it.each([
    ['5.81', 5.81],
    ['107,938', 107938],
    ['x1.00', 1],
    ['258.7x', 258.7],
    ['12%', 12],
    ['-3', -3],
    ['3.2 ms', 3.2],
  ])('reads %s as %d', (cell, value) => {
    expect(parseNumber(cell)).toBe(value);
  });

  it.each(['1002 x 32', '7/25', '256 (allow 95)', '-', '', 'compiled policy'])('reads %j as no number', (cell) => {
    expect(parseNumber(cell)).toBeUndefined();
  });
});

describe('parseFigures', () => {
  it('names each number of each table by section, row and column', () => {
    const figures = parseFigures(OUTPUT);
    expect(figures.get('(a) compiled policy · p50 us')).toBe(5.81);
    expect(figures.get('(a) compiled policy · decisions/s')).toBe(107938);
    expect(figures.get('(a) raw policy object (no compilePolicy; info) · p99 us')).toBe(36.1);
    expect(figures.get('(a) compiled policy · rules')).toBe(200);
    // A numeric row label is named with its column: "rules 1,000".
    expect(figures.get('(c) rules 1,000 · p50 us')).toBe(13.4);
    expect(figures.get('(c) rules 10 · p50 vs 10')).toBe(1);
    expect(figures.get('(c) rules 1,000 · compilePolicy ms (median)')).toBe(15.83);
    // Cells that are not one number are no figure; text outside tables neither.
    expect(
      [...figures.keys()].some((name) => name.includes('samples x batch') || name.includes('calls hit a rule')),
    ).toBe(false);
    expect(figures.size).toBe(2 * 5 + 2 * 5);
  });

  it('numbers a repeated name instead of overwriting it', () => {
    const twice = `(b) x\n  case  p50 us\n  ----  ------\n  a       1.5\n  a       2.5\n`;
    expect([...parseFigures(twice)]).toEqual([
      ['(b) a · p50 us', 1.5],
      ['(b) a · p50 us #2', 2.5],
    ]);
  });

  it('finds nothing in output without tables', () => {
    expect(parseFigures('hello\n---\nworld\n').size).toBe(0);
  });
});

describe('median', () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[7], 7],
  ])('of %j is %d', (xs, m) => {
    expect(median(xs)).toBe(m);
  });
  it('of nothing is NaN', () => {
    expect(median([])).toBeNaN();
  });
});

describe('compareFigures', () => {
  const run = (entries: Record<string, number>) => new Map(Object.entries(entries));
  const A = [
    run({ 'p50 · us': 10, 'n · rules': 200, 'x · decisions/s': 1000 }),
    run({ 'p50 · us': 12, 'n · rules': 200, 'x · decisions/s': 1100 }),
    run({ 'p50 · us': 11, 'n · rules': 200, 'x · decisions/s': 900 }),
  ];
  const B = [
    run({ 'p50 · us': 22, 'n · rules': 200, 'x · decisions/s': 500 }),
    run({ 'p50 · us': 20, 'n · rules': 200, 'x · decisions/s': 550, 'only B · us': 1 }),
    run({ 'p50 · us': 24, 'n · rules': 200, 'x · decisions/s': 450 }),
  ];

  it('gives the medians of each side and B/A, leaving out constants and one-sided figures', () => {
    const rows = compareFigures(A, B);
    expect(rows.map((r) => r.name)).toEqual(['p50 · us', 'x · decisions/s']);
    expect(rows[0]).toMatchObject({ medianA: 11, medianB: 22, ratio: 2, higherIsBetter: false, ranges: 'above' });
    expect(rows[1]).toMatchObject({ medianA: 1000, medianB: 500, ratio: 0.5, higherIsBetter: true, ranges: 'below' });
  });

  it('keeps constants with `all` and filters names with `only`', () => {
    expect(compareFigures(A, B, { all: true }).map((r) => r.name)).toContain('n · rules');
    expect(compareFigures(A, B, { only: /decisions/ }).map((r) => r.name)).toEqual(['x · decisions/s']);
  });

  it('says the ranges overlap when one run of B is inside the range of A', () => {
    const rows = compareFigures([run({ t: 10 }), run({ t: 14 })], [run({ t: 13 }), run({ t: 20 })]);
    expect(rows[0]).toMatchObject({ ranges: 'overlap', medianA: 12, medianB: 16.5 });
  });

  it('prints a table with the medians, the ratio and both ranges', () => {
    const text = formatComparison(compareFigures(A, B));
    expect(text).toMatch(/^ {2}figure\s+A median\s+B median\s+B\/A\s+A min-max\s+B min-max\s+B runs vs A runs$/m);
    expect(text).toMatch(/p50 · us\s+11\s+22\s+2\.000\s+10-12\s+20-24\s+all above$/m);
    expect(text).toMatch(
      /x · decisions\/s \(higher is better\)\s+1,000\s+500\s+0\.500\s+900-1,100\s+450-550\s+all below$/m,
    );
  });

  it('compares the real parse of two outputs', () => {
    const slower = OUTPUT.replace('5.81', '6.391');
    const rows = compareFigures([parseFigures(OUTPUT)], [parseFigures(slower)], { only: /compiled policy · p50/ });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ratio).toBeCloseTo(1.1, 5);
  });
});
