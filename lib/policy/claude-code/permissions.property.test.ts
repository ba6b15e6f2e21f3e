// The import's one-sided promise, as a property: a Claude Code rule converted as deny (or ask) is
// at least as wide as the same rule converted as allow. So whatever the allow translation lets
// through, the deny translation of the same entry stops: no entry allows more than it would deny.
// Calls are built from the entry's own words and path segments, so they often match it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate } from '../index';
import { mapClaudeCodeCall } from './map-call';
import { convertRule } from './permissions';

const cwd = '/home/u/proj';
const ctx = { workspaceRoot: cwd, homeDir: '/home/u', cwd };

const segments = fc.array(fc.constantFrom('src', '.env', 'a.ts', '*.ts', '**', '..'), { minLength: 1, maxLength: 3 });
/** A concrete file the segments could name: wildcards filled in. */
const concrete = (parts: string[]) => parts.map((s) => (s === '**' ? 'src' : s.replace('*', 'a')));

const pathCase = fc
  .record({
    tool: fc.constantFrom('Read', 'Edit'),
    prefix: fc.constantFrom('', './', '/', '//home/u/proj/', '~/'),
    parts: segments,
    dir: fc.boolean(),
    callTool: fc.constantFrom('Read', 'Grep', 'LS', 'Edit', 'Write'),
    callRoot: fc.constantFrom('', 'src/', 'src/src/', '/home/u/', '/'),
    callTail: fc.constantFrom('', '/a.ts'),
  })
  .map(({ tool, prefix, parts, dir, callTool, callRoot, callTail }) => {
    const file = `${callRoot}${concrete(parts).join('/')}${dir ? '/a.ts' : callTail}`;
    const input =
      callTool === 'Read' || callTool === 'Write'
        ? { file_path: file, content: '' }
        : callTool === 'Edit'
          ? { file_path: file, old_string: 'a', new_string: 'b' }
          : { path: file };
    return {
      entry: `${tool}(${prefix}${parts.join('/')}${dir ? '/' : ''})`,
      call: { tool_name: callTool, tool_input: input },
    };
  });

const word = fc.constantFrom('git', 'push', 'npm', 'test', '*', 'test*', '-f');
const bashCase = fc
  .record({
    words: fc.array(word, { minLength: 1, maxLength: 4 }),
    prefix: fc.boolean(),
    extra: fc.constantFrom('', ' main', ' && rm x', 'x'),
  })
  .map(({ words, prefix, extra }) => {
    const literal = words.filter((w) => !w.includes('*'));
    const spec = prefix ? `${literal.join(' ') || 'git'}:*` : words.join(' ');
    const command = `${(prefix ? (literal.length ? literal : ['git']) : words).map((w) => w.replace('*', 'x')).join(' ')}${extra}`;
    return { entry: `Bash(${spec})`, call: { tool_name: 'Bash', tool_input: { command } } };
  });

const otherCase = fc.record({
  entry: fc.constantFrom(
    'WebFetch(domain:example.com)',
    'WebFetch(domain:*.example.com)',
    'mcp__s',
    'mcp__s__t',
    'WebSearch',
  ),
  call: fc.constantFrom(
    { tool_name: 'WebFetch', tool_input: { url: 'https://example.com/a' } },
    { tool_name: 'WebFetch', tool_input: { url: 'http://api.example.com:8080/' } },
    { tool_name: 'mcp__s__t', tool_input: {} },
    { tool_name: 'mcp__s__u', tool_input: {} },
    { tool_name: 'WebSearch', tool_input: { query: 'q' } },
  ),
});

function convertible(text: string): boolean {
  try {
    convertRule(text, 'allow');
    convertRule(text, 'deny');
    return true;
  } catch {
    return false;
  }
}

describe('converted Claude Code rules', () => {
  it('deny is at least as wide as allow: what the allow translation allows, the deny translation denies', () => {
    let allowed = 0;
    fc.assert(
      fc.property(fc.oneof(pathCase, bashCase, otherCase), ({ entry, call }) => {
        fc.pre(convertible(entry));
        const mapped = mapClaudeCodeCall({ ...call, cwd });
        if (!mapped.ok) return;
        const allow = compilePolicy({ defaultAction: 'ask', rules: convertRule(entry, 'allow') });
        const deny = compilePolicy({ defaultAction: 'ask', rules: convertRule(entry, 'deny') });
        const c = { ...ctx, risk: mapped.risk };
        if (evaluate(allow, mapped.call, c).action !== 'allow') return;
        allowed++;
        expect(evaluate(deny, mapped.call, c).action).toBe('deny');
      }),
      { numRuns: 1000 },
    );
    // Not vacuous: a good share of the cases are allowed by the allow translation.
    expect(allowed).toBeGreaterThan(100);
    // About 3 s alone; the budget is 20x that, for a machine shared with builds.
  }, 60_000);
});
