// The stated bound: one evaluation spends at most WORK_BUDGET matching steps (about 50 ms of one
// core), whatever the policy and the call. These are the worst inputs we know: a per-run policy at
// DRAFT_LIMITS on top of the default policy, every pattern at its longest and most adversarial,
// every value at MAX_VALUE_LENGTH, commands with the most parts. Each evaluation must stay under
// 10x the bound's expected cost; the shell parse (bounded and cached by the parser) is warmed first.
import { describe, expect, it } from 'vitest';
import {
  compilePolicy,
  DEFAULT_POLICY,
  DRAFT_LIMITS,
  evaluate,
  importDraftPolicy,
  MAX_VALUE_LENGTH,
  parseCommand,
  type PolicyInput,
  type RuleInput,
  type ToolCall,
} from './index';
import { expandedSize } from './regex';

/** 10x the expected worst case (about 100 ms on a loaded 2-core VM). */
const BUDGET_MS = 1000;
const { rules: RULES, matchersPerRule: MATCHERS, patternLength: LONGEST, totalPatternLength: TOTAL } = DRAFT_LIMITS;

const fill = (unit: string, length: number) => unit.repeat(Math.max(1, Math.floor(length / unit.length)));

const KEYS = ['content', 'path', 'url', 'command', 'note', 'x', 'y', 'z'];

/** Patterns of about `length` characters that backtracking engines choke on, by param. */
function adversarial(length: number): Record<string, string>[] {
  return [
    { content: `${fill('*a', length - 2)}*b`, note: `*${fill('?a', length - 3)}b*`, x: fill('a*', length) },
    {
      path: `**/${fill('*a', length - 10)}/**/b`,
      url: `https://*.x.com/**${fill('a*', length - 20)}`,
      command: `echo ${fill('x ', length - 10)}*`,
    },
  ];
}

function conditions(length: number, key: string): NonNullable<RuleInput['when']> {
  return [
    { key, op: 'regex', value: '((a+)+)+$' },
    { key, op: 'regex', value: length > 40 ? `(a[ab]{${Math.min(length, 490)}}[^ab])` : '(a|aa)*c$' },
    { key, op: 'host', value: fill('10.0.0.0/8,fc00::/7,example.com,', length) },
    { key, op: 'glob', value: `${fill('*a', length - 2)}*b` },
    { key, op: 'eq', value: fill('a', length) },
    { key, op: 'command_blacklist', value: fill('rm,', length) },
    { key, op: 'no_command_substitution', value: '' },
  ];
}

/**
 * A per-run policy at the limits: `rules` rules of up to `matchers` matchers, each pattern about
 * `length` long, as many as the total allows.
 */
function draftOf(rules: number, matchers: number, length: number): PolicyInput {
  let total = 0;
  const fits = (size: number) => total + size <= TOTAL && (total += size) > 0;
  return {
    rules: Array.from({ length: rules }, (_, i): RuleInput => {
      const action = (['deny', 'ask', 'allow'] as const)[i % 3]!;
      const tool = ['*', 'bash', 'read_file', 'fetch_url', 'write_file', 'mcp__x__y'][i % 6]!;
      const params: Record<string, string> = {};
      const when: NonNullable<RuleInput['when']> = [];
      for (let k = 0; k < matchers; k++) {
        const key = KEYS[(k + i) % KEYS.length]!;
        if ((k + i) % 2 === 0) {
          const pattern =
            (Object.assign({}, ...adversarial(length)) as Record<string, string>)[key] ?? fill('*a', length);
          if (fits(pattern.length)) params[key] = pattern;
        } else {
          const condition = conditions(length, key)[(k + i) % 7]!;
          if (fits(condition.op === 'regex' ? expandedSize(condition.value ?? '') : (condition.value ?? '').length))
            when.push(condition);
        }
      }
      return { action, tool, params, when };
    }),
  };
}

const DRAFTS: [string, PolicyInput][] = [
  ['the most rules and matchers', draftOf(RULES, MATCHERS, Math.floor(TOTAL / (RULES * MATCHERS)) - 2)],
  ['the longest patterns', draftOf(Math.floor(TOTAL / LONGEST), 1, LONGEST - 10)],
  ['long patterns in every matcher', draftOf(2, MATCHERS, Math.floor(TOTAL / (2 * MATCHERS)) - 10)],
];

const a = 'a'.repeat(MAX_VALUE_LENGTH);
const ab = 'ab'.repeat(MAX_VALUE_LENGTH / 2);

const CALLS: [string, ToolCall][] = [
  [
    'text values of the maximum length',
    { tool: 'mcp__x__y', params: { content: a, note: ab, x: a, y: ab, z: a, path: a, url: a, command: a } },
  ],
  [
    'a path of the maximum length',
    { tool: 'read_file', params: { path: `/ws/${'a/'.repeat(MAX_VALUE_LENGTH / 2 - 4)}b` } },
  ],
  [
    'a URL of the maximum length',
    { tool: 'fetch_url', params: { url: `https://a.x.com/${a.slice(0, MAX_VALUE_LENGTH - 40)}` } },
  ],
  ['a file write with maximum content', { tool: 'write_file', params: { path: 'a.txt', content: ab } }],
  ['a command of one 99,990-character word', { tool: 'bash', params: { command: `echo ${a.slice(0, 99_990)}` } }],
  ['a command of 14,000 two-word parts', { tool: 'bash', params: { command: 'echo x;'.repeat(14_000) } }],
  ['a command of 20,000 parts', { tool: 'bash', params: { command: 'x;'.repeat(19_999) } }],
  [
    'a command of long words in many parts',
    { tool: 'bash', params: { command: `echo ${'a'.repeat(5000)};`.repeat(19) } },
  ],
];

describe('the worst case of one evaluation', () => {
  for (const [draftName, draft] of DRAFTS) {
    const policy = compilePolicy({
      ...DEFAULT_POLICY,
      rules: [...(DEFAULT_POLICY.rules ?? []), ...importDraftPolicy(draft).rules],
    });
    it.each(CALLS)(`%s against a per-run policy with ${draftName} stays under the time budget`, (_name, call) => {
      const command = call.params.command;
      if (typeof command === 'string') parseCommand(command);
      const start = performance.now();
      const decision = evaluate(policy, call, { workspaceRoot: '/ws', homeDir: '/home/u' });
      const ms = performance.now() - start;
      expect(['allow', 'ask', 'deny']).toContain(decision.action);
      if (process.env.WORST_CASE_PRINT)
        console.log(`${ms.toFixed(1).padStart(7)} ms  ${decision.action} ${decision.reason}  ${_name} / ${draftName}`);
      expect(ms).toBeLessThan(BUDGET_MS);
    });
  }
});

describe('shell word globs', () => {
  it('a deny rule of a word glob with many stars against a long word stays under the time budget', () => {
    // `*a*a*...*b` as one word: a backtracking regex took minutes on this; the glob matcher is linear.
    const word = `${fill('*a', LONGEST - 12)}*b`;
    const policy = compilePolicy({
      rules: [
        { action: 'deny', tool: 'bash', params: { command: `echo ${word}` } },
        { action: 'allow', tool: 'bash', params: { command: `echo ${word}x` } },
      ],
    });
    const call = { tool: 'bash', params: { command: `echo ${'a'.repeat(20_000)}` } };
    parseCommand(call.params.command);
    const start = performance.now();
    const decision = evaluate(policy, call);
    expect(performance.now() - start).toBeLessThan(BUDGET_MS);
    expect(decision.action).toBe('ask');
    expect(evaluate(policy, { tool: 'bash', params: { command: `echo ${'a'.repeat(300)}b` } }).action).toBe('deny');
  });
});
