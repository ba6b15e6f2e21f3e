// Over-deep or over-large shell input is refused before parsing, cheaply, and the refusal is
// cached like any parse. Before this guard, `$(` nested 33,000 times held the event loop for
// seconds until the parser's stack overflowed; the budgets below are 100x what it takes now.
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate } from '../index';
import { ParseCache } from './cache';
import { MAX_COMMAND_LENGTH, parseCommand } from './parse';
import { MAX_ELEMENTS, MAX_NESTING, precheck } from './precheck';

const policy = compilePolicy({
  defaultAction: 'ask',
  rules: [{ action: 'allow', tool: 'bash', params: { command: '*' } }],
});
const BUDGET_MS = 1_000;

function timed(command: string) {
  const start = performance.now();
  const decision = evaluate(policy, { tool: 'bash', params: { command } });
  return { decision, ms: performance.now() - start };
}

/** Backticks nested by escaping, as bash nests them: each level doubles the backslashes. */
function nestedBackticks(levels: number): string {
  let inner = 'echo x';
  for (let i = 0; i < levels; i++) inner = `echo \`${inner.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
  return inner;
}

describe('deep nesting is refused before parsing, within a time budget, and cached', () => {
  const deep: [string, string][] = [
    ['$( nested 33,000 times (99 KB)', '$('.repeat(33_000)],
    ['$( nested 16,000 times in a chat line', `please run echo ${'$('.repeat(16_000)}ls${')'.repeat(16_000)} thanks`],
    ['(( nested 33,000 times', '('.repeat(33_000)],
    ['{ { { nested 33,000 times', '{ '.repeat(33_000)],
    ['${ nested 33,000 times', 'echo ' + '${x:-'.repeat(19_000)],
    ['$(( nested 16,000 times', 'echo ' + '$(('.repeat(16_000)],
    ['"$( nested 16,000 times', 'echo ' + '"$('.repeat(16_000)],
    ['<( nested 16,000 times', 'cat ' + '<('.repeat(16_000)],
    ['backticks nested 65 levels by escaping a $( each', 'echo ' + '`$('.repeat(33)],
  ];
  it.each(deep)('%s', (_name, command) => {
    expect(command.length).toBeLessThanOrEqual(MAX_COMMAND_LENGTH);
    const first = timed(command);
    expect(first.ms).toBeLessThan(BUDGET_MS);
    expect(first.decision.action).toBe('ask');
    expect(first.decision.reason).toBe('unparseable');
    expect(first.decision.explanation).toMatch(/nests more than 64 levels|words, operators and expansions/);
    // A second evaluation is a cache hit: the same analysis object comes back.
    expect(parseCommand(command)).toBe(parseCommand(command));
  });

  it('backticks nested by escaping as deep as 100 KB allows stay within the budget', () => {
    const command = nestedBackticks(15);
    expect(command.length).toBeLessThanOrEqual(MAX_COMMAND_LENGTH);
    const { ms, decision } = timed(command);
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(decision.action).toBe('allow');
  });

  it('33,000 backticks in a row are 16,500 empty substitutions side by side, not nesting', () => {
    const { ms } = timed(`echo ${'`'.repeat(33_000)}`);
    expect(ms).toBeLessThan(BUDGET_MS);
  });
});

describe('the scan counts nesting the way bash reads it: closers it cannot trust close nothing', () => {
  const hidden: [string, string][] = [
    ['a `)` in single quotes', `echo ${"$( ')' ".repeat(70)}`],
    ['a `)` in double quotes', `echo ${'$( ")" '.repeat(70)}`],
    ['an escaped `)`', `echo ${'$( \\) '.repeat(70)}`],
    ['a `)` in a comment', `${'$( # )\n'.repeat(70)}`],
    ['a `)` in a heredoc body', `${'$(cat <<E\n)\nE\n'.repeat(70)}`],
    ['a `)` in a quoted heredoc body', `${"$(cat <<'E'\n)\nE\n".repeat(70)}`],
    ['a `)` ending a case pattern', `${'$(case x in a) '.repeat(70)}`],
    ['a `}` inside ${...}', `echo ${'$( ${x:-}} '.repeat(70)}`],
    ['a `)` inside $((...))', `echo ${'$( $((1)) '.repeat(70)}`],
    ['a quote in a comment right after a heredoc body', `cat <<E\nx\nE\n# don't\n${'$('.repeat(70)}`],
  ];
  it.each(hidden)('%s', (_name, command) => {
    expect(precheck(command).reject).toContain(`nests more than ${MAX_NESTING} levels`);
  });

  it('text inside single quotes or a quoted heredoc is not counted at all', () => {
    expect(precheck(`echo '${'$('.repeat(1000)}'`).reject).toBeUndefined();
    expect(precheck(`cat <<'EOF'\n${'$( '.repeat(30_000)}\nEOF`).reject).toBeUndefined();
  });

  it('an unquoted heredoc body is expanded, so its substitutions count', () => {
    expect(precheck(`cat <<EOF\n${'$('.repeat(100)}\nEOF`).reject).toContain('nests more than');
  });
});

describe('size: a command has at most MAX_ELEMENTS words, operators and expansions', () => {
  it('counts words, operators and expansions, not characters', () => {
    // 15 words and 5 operators (`&&` counts once per character).
    expect(
      precheck('git status && npm test | tee out.log; git log --oneline -n 20 | head -5 && echo done').elements,
    ).toBe(22);
    // Shorter than the nesting limit: counted as its length, an upper bound, without a scan.
    expect(precheck('git status && npm test').elements).toBe(22);
    expect(precheck(`echo ${'a'.repeat(90_000)}`).elements).toBe(2);
  });

  it(`refuses a command with more than ${MAX_ELEMENTS} elements`, () => {
    const { decision, ms } = timed('ls; '.repeat(MAX_ELEMENTS));
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(decision.action).toBe('ask');
    expect(decision.explanation).toContain(`more than ${MAX_ELEMENTS} words, operators and expansions`);
  });

  it('nested scripts share the budget (bash -c, eval)', () => {
    const inner = `bash -c '${'ls; '.repeat(MAX_ELEMENTS / 4)}'; `;
    expect(evaluate(policy, { tool: 'bash', params: { command: inner } }).action).toBe('allow');
    expect(evaluate(policy, { tool: 'bash', params: { command: inner.repeat(3) } }).explanation).toContain(
      'words, operators and expansions',
    );
  });

  it('arithmetic operators count: a 10,000-term sum is refused', () => {
    expect(precheck(`echo $((${'1+'.repeat(10_000)}1))`).reject).toContain('words, operators and expansions');
  });

  it('a long literal (a file written through a quoted heredoc) is cheap and allowed', () => {
    const { decision, ms } = timed(`cat <<'EOF'\n${'some text, (with) $(odd) `chars` #\n'.repeat(2_500)}EOF`);
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(decision.parts?.every((p) => p.action === 'allow')).toBe(true);
  });
});

describe('one evaluation of any command within the limits stays within its bound', () => {
  // A policy like the benchmark's: allow rules for everyday programs, ask and deny rules.
  const realistic = compilePolicy({
    defaultAction: 'ask',
    rules: [
      ...[
        'git *',
        'npm test *',
        'ls *',
        'cat *',
        'grep *',
        'echo *',
        'find *',
        'wc *',
        'head *',
        'node *',
        'cd *',
        'printf *',
      ].map((c) => ({ action: 'allow' as const, tool: 'bash', params: { command: c } })),
      ...['git push *', 'curl *', 'npm install *'].map((c) => ({
        action: 'ask' as const,
        tool: 'bash',
        params: { command: c },
      })),
      ...['rm -rf *', 'sudo *', 'dd *'].map((c) => ({ action: 'deny' as const, tool: 'bash', params: { command: c } })),
      {
        action: 'deny' as const,
        tool: 'bash',
        when: [{ key: 'command', op: 'command_blacklist' as const, value: 'dd,mkfs,shred' }],
      },
    ],
  });
  /** `unit` repeated as often as the element budget allows. */
  const fill = (prefix: string, unit: string): string => {
    let lo = 1;
    let hi = Math.floor(MAX_COMMAND_LENGTH / unit.length);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (precheck(prefix + unit.repeat(mid)).reject) hi = mid - 1;
      else lo = mid;
    }
    return prefix + unit.repeat(lo);
  };
  const shapes: [string, string][] = [
    ['many short commands', fill('', 'ls;')],
    ['a long pipeline', fill('', 'cat x | ')],
    ['many substitutions', fill('echo ', '"$(ls)" ')],
    ['nesting 60 deep, repeated', fill('echo ', `${'$('.repeat(60)}ls${')'.repeat(60)} `)],
    ['many wrapped commands', fill('', 'sudo env nice timeout 5 ls; ')],
    ['find with many -exec', fill('find . ', '-exec ls {} + ')],
    ['many dynamic words', fill('rm ', '$X ')],
    ['many assignments and arithmetic', fill('', 'x=$((x+1)); ')],
    ['many parameter expansions', fill('echo ', '${a[i+1]:-${x@P}} ')],
    ['nested shells', fill('', `bash -c 'ls; cat x | grep y'; `)],
    ['compound commands', fill('', 'if ls; then for i in 1 2; do case $i in a) ls;; esac; done; fi; ')],
  ];
  it.each(shapes)('%s', (_name, command) => {
    expect(precheck(command).reject).toBeUndefined();
    const start = performance.now();
    evaluate(realistic, { tool: 'bash', params: { command } });
    expect(performance.now() - start).toBeLessThan(BUDGET_MS);
  });
});

describe('commands past the length limit', () => {
  it('are opaque without being parsed or cached', () => {
    const command = `echo ${'a'.repeat(MAX_COMMAND_LENGTH)}`;
    expect(parseCommand(command).parts[0]!.opaque).toBe('the command is too long to inspect');
    expect(parseCommand(command)).not.toBe(parseCommand(command));
  });
});

describe('the parse cache is bounded by entries and by weight', () => {
  const parsed = (parts: number) => ({
    parts: Array.from({ length: parts }, () => parseCommand('ls').parts[0]!),
    hasSubstitution: false,
  });

  it('evicts the least recently used entries when the weight is exceeded', () => {
    const cache = new ParseCache(100, 10_000);
    const key = (c: string) => c.repeat(1_500); // weighs 1,500 + 512 for its part
    cache.set(key('a'), parsed(1));
    cache.set(key('b'), parsed(1));
    cache.get(key('a'));
    for (const c of ['c', 'd', 'e']) cache.set(key(c), parsed(1));
    expect(cache.size).toBe(4);
    expect(cache.get(key('a'))).toBeDefined();
    expect(cache.get(key('b'))).toBeUndefined();
  });

  it('does not keep an entry heavier than a quarter of its budget', () => {
    const cache = new ParseCache(100, 10_000);
    cache.set('x'.repeat(3_000), parsed(0));
    expect(cache.size).toBe(0);
  });

  it('evicts by entry count too', () => {
    const cache = new ParseCache(2, 1_000_000);
    for (const key of ['a', 'b', 'c']) cache.set(key, parsed(1));
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
  });
});
