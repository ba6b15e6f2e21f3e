// Shared helpers of the table-driven tests of issue 19's rules: a row is a name, a policy (by
// name), a call and the expected decision; `check` runs a table and pins, for every row, that an
// allowed command has every part allowed.
import { expect, it } from 'vitest';
import {
  evaluate,
  type Action,
  type EvaluationContext,
  type PolicyInput,
  type RuleInput,
  compilePolicy,
  type CompiledPolicy,
} from '../index';

export const CTX: EvaluationContext = { workspaceRoot: '/ws', homeDir: '/home/u' };

export const bashRule = (action: Action, command: string): RuleInput => ({ action, tool: 'bash', params: { command } });

/** A row: [the rule it pins, the command, the expected action, optionally a word the explanation must contain]. */
export type Row = readonly [name: string, command: string, expected: Action, explains?: string];

export function policyOf(input: PolicyInput): CompiledPolicy {
  return compilePolicy(input);
}

export function check(policy: CompiledPolicy, rows: readonly Row[], ctx: EvaluationContext = CTX): void {
  it.each(rows.map((row) => ({ name: row[0], command: row[1], expected: row[2], explains: row[3] })))(
    '$name: $command',
    ({ command, expected, explains }) => {
      const decision = evaluate(policy, { tool: 'bash', params: { command } }, ctx);
      expect(decision.action, decision.explanation).toBe(expected);
      if (explains) expect(decision.explanation).toContain(explains);
      if (decision.action === 'allow') expect(decision.parts?.every((p) => p.action === 'allow')).toBe(true);
    },
  );
}
