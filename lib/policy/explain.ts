// Human-readable explanations of decisions: what the approval modal and the rule editor show.
import type { Action, Rule } from './types';

const VERB: Record<Action, string> = { allow: 'Allowed', ask: 'Needs approval', deny: 'Denied' };

export function ruleName(index: number, rule: Rule): string {
  return rule.id ? `rule "${rule.id}"` : `rule #${index + 1}`;
}

/** A one-line summary of what a rule says, e.g. `deny bash command "rm -rf *"`. */
export function describeRule(rule: Rule): string {
  const bits = [`${rule.action} ${rule.tool}`];
  if (rule.agent) bits.push(`for agent ${rule.agent}`);
  for (const [key, pattern] of Object.entries(rule.params ?? {})) bits.push(`${key} "${pattern}"`);
  for (const c of rule.when ?? [])
    bits.push(
      c.op === 'no_command_substitution' ? `when ${c.key} has a substitution` : `when ${c.key} ${c.op} "${c.value}"`,
    );
  return bits.join(' ');
}

export function byRule(action: Action, index: number, rule: Rule): string {
  const note = rule.description ? `: ${rule.description.trim()}` : '';
  const text = `${VERB[action]} by ${ruleName(index, rule)} (${describeRule(rule)})${note}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A file or host rule that applies to a shell part: `Denied by rule #2 (deny read_file path ".env"): \`cat\` reads /ws/.env.` */
export function byFollowedRule(action: Action, index: number, rule: Rule, program: string, what: string): string {
  const who = program === '' ? 'the command' : `\`${program}\``;
  return `${VERB[action]} by ${ruleName(index, rule)} (${describeRule(rule)}): ${who} ${what}.`;
}

export function byGrant(rule: Rule): string {
  return `Allowed by ${rule.once ? 'a one-time grant' : 'an "always allow" grant'} (${describeRule(rule)}).`;
}

export function byRiskDefault(action: Action, risk: string): string {
  return `${VERB[action]}: no rule matches, and the default for ${risk.replace('_', '-')} tools is ${action}.`;
}

export function byDefaultAction(action: Action): string {
  return `${VERB[action]}: no rule matches, and the policy's default is ${action}.`;
}

export function unparseable(why: string): string {
  return `Needs approval: the command cannot be fully inspected (${why}), so no allow rule can cover it.`;
}

export function overBudget(steps: number): string {
  return `Needs approval: checking this call against every rule would take more than the engine's work limit (${steps.toLocaleString('en-US')} steps), so no allow rule can cover it.`;
}

export function commandRuleBlocked(why: string): string {
  return `Needs approval: an allow rule matches, but ${why}, which command allow rules never cover.`;
}

export function dangerousOption(label: string, why: string): string {
  return `Needs approval: an allow rule matches, but \`${label}\` ${why}; a command allow rule allows that only when its pattern spells the option out.`;
}

export function inPart(command: string, explanation: string): string {
  return `Part \`${command}\`: ${explanation}`;
}
