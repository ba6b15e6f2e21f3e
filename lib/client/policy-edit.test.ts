import { describe, expect, it } from 'vitest';
import type { Rule } from '../policy/types';
import { emptyValues, fieldErrors, ruleToValues, valuesToRule, withRule, withoutRule } from './policy-edit';

const ROUND_TRIPS: [string, Rule][] = [
  ['a bare rule', { action: 'ask', tool: 'bash' }],
  ['params and agent', { id: 'no-curl', action: 'deny', tool: 'bash', agent: 'main', params: { command: 'curl *' } }],
  ['conditions', { action: 'deny', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: 'localhost' }] }],
  [
    'timeout and onTimeout',
    { action: 'ask', tool: 'write_file', timeoutS: 30, onTimeout: 'deny', description: 'Writes wait 30 s.' },
  ],
  ['allow once', { action: 'allow', tool: 'read_file', params: { path: 'a.txt' }, once: true }],
];

describe('rule <-> form values', () => {
  it.each(ROUND_TRIPS)('round-trips %s', (_name, rule) => {
    expect(valuesToRule(ruleToValues(rule))).toEqual({ ok: true, rule });
  });

  it('drops empty param rows and trims text fields', () => {
    const values = {
      ...emptyValues(),
      tool: ' bash ',
      id: ' x ',
      params: [
        { key: '', pattern: '' },
        { key: 'command', pattern: 'ls' },
      ],
    };
    expect(valuesToRule(values)).toEqual({
      ok: true,
      rule: { id: 'x', action: 'ask', tool: 'bash', params: { command: 'ls' } },
    });
  });

  it('reports an empty tool on the tool field', () => {
    const result = valuesToRule(emptyValues());
    expect(result).toEqual({ ok: false, errors: { tool: 'tool must not be empty' } });
  });

  it('reports a nameless or repeated parameter on its name field', () => {
    const values = {
      ...emptyValues(),
      tool: 'bash',
      params: [
        { key: 'command', pattern: 'a' },
        { key: 'command', pattern: 'b' },
        { key: '', pattern: 'c' },
      ],
    };
    const result = valuesToRule(values);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['params.1.key', 'params.2.key']);
  });

  it('reports a bad timeout and an empty condition key on their fields', () => {
    const values = {
      ...emptyValues(),
      tool: 'bash',
      timeoutS: '1.5',
      conditions: [{ key: '', op: 'eq' as const, value: 'x' }],
    };
    const result = valuesToRule(values);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['conditions.0.key', 'timeoutS']);
    const negative = valuesToRule({ ...emptyValues(), tool: 'bash', timeoutS: '-3' });
    expect(negative.ok ? undefined : Object.keys(negative.errors)).toEqual(['timeoutS']);
  });
});

describe('server field errors', () => {
  const values = {
    ...emptyValues(),
    tool: 'bash',
    params: [{ key: 'command', pattern: '$(' }],
    conditions: [{ key: 'command', op: 'regex' as const, value: '(' }],
  };

  it('maps the saved rule’s paths onto its inputs', () => {
    const issues = [
      { path: 'rules.3.params.command', message: 'bad pattern' },
      { path: 'rules.3.when.0.value', message: 'bad regex' },
      { path: 'rules.3.tool', message: 'tool must not be empty' },
    ];
    expect(fieldErrors(issues, 'rules.3.', values)).toEqual({
      'params.0.pattern': 'bad pattern',
      'conditions.0.value': 'bad regex',
      tool: 'tool must not be empty',
    });
  });

  it('puts issues of other rules or unknown paths on the form', () => {
    expect(fieldErrors([{ path: 'rules.1.tool', message: 'nope' }], 'rules.3.', values)).toEqual({
      form: 'rules.1.tool: nope',
    });
    expect(fieldErrors([{ path: 'rules.3.params.url', message: 'nope' }], 'rules.3.', values)).toEqual({
      form: 'nope',
    });
  });
});

describe('policy edits', () => {
  const policy = {
    defaultAction: 'ask' as const,
    rules: [
      { action: 'allow' as const, tool: 'a' },
      { action: 'deny' as const, tool: 'b' },
    ],
  };

  it('appends, replaces and removes one rule, leaving the others as they were', () => {
    expect(withRule(policy, null, { action: 'ask', tool: 'c' }).rules.map((r) => r.tool)).toEqual(['a', 'b', 'c']);
    expect(withRule(policy, 0, { action: 'ask', tool: 'z' }).rules.map((r) => r.tool)).toEqual(['z', 'b']);
    expect(withoutRule(policy, 0).rules.map((r) => r.tool)).toEqual(['b']);
    expect(policy.rules).toHaveLength(2);
  });
});
