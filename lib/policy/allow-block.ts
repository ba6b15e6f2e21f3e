// Why a command allow rule (or grant) that matches a part may still not allow it: an output
// redirection to a file, a risky environment assignment, or a dangerous option (the table of
// programs/dangerous.ts) that the rule's pattern does not spell out. A rule for the whole tool,
// without a command pattern, is not a command rule: it allows these too.
import { kindMatcher, type CompiledRule } from './compile';
import * as explain from './explain';
import { constrainsCommand, type PreparedCall, type Unit } from './match';
import { dangersOf, type Danger } from './programs/dangerous';
import type { CommandPattern } from './shell/pattern';

/** The explanation of why the rule may not allow the part, if it may not. */
export function commandRuleBlock(rule: CompiledRule, prep: PreparedCall, unit: Unit): string | undefined {
  const part = unit.part;
  if (!part || !constrainsCommand(rule, prep)) return undefined;
  if (part.writesFile) return explain.commandRuleBlocked('it redirects output to a file');
  if (part.riskyEnv) return explain.commandRuleBlocked(`it sets ${part.riskyEnv}`);
  // Paid like one more pattern word against the part: the scan is linear in its words.
  if (!prep.work.charge(unit.cost ?? 1))
    return explain.commandRuleBlocked('the engine ran out of work checking its options');
  const dangers = dangersOf(part.views[part.views.length - 1]!, part.openArgs);
  for (const danger of dangers)
    if (!spelledOut(rule, prep, danger)) return explain.dangerousOption(danger.label, danger.why);
  return undefined;
}

/** The rule's command pattern has the dangerous word itself as a literal word. */
function spelledOut(rule: CompiledRule, prep: PreparedCall, danger: Danger): boolean {
  const word = danger.word;
  if (!word || word.dynamic) return false;
  for (const pattern of commandPatterns(rule, prep.commandParam!)) if (literalsOf(pattern).has(word.value)) return true;
  return false;
}

function commandPatterns(rule: CompiledRule, param: string): CommandPattern[] {
  const patterns: CommandPattern[] = [];
  for (const p of rule.params) {
    if (p.key !== param) continue;
    const matcher = kindMatcher(p, 'command');
    if (matcher.kind === 'command') patterns.push(matcher.pattern);
  }
  for (const c of rule.conditions) {
    if (c.key !== param || c.op !== 'glob' || !c.pattern) continue;
    const matcher = kindMatcher(c.pattern, 'command');
    if (matcher.kind === 'command') patterns.push(matcher.pattern);
  }
  return patterns;
}

function literalsOf(pattern: CommandPattern): ReadonlySet<string> {
  if (!pattern.literals)
    pattern.literals = new Set(pattern.words.flatMap((w) => (w.kind === 'literal' ? [w.text] : [])));
  return pattern.literals;
}
