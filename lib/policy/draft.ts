// Policies from callers who may not edit the stored policy (a run's `permissions`): the same
// formats importPolicy reads, within DRAFT_LIMITS, so compiling one stays cheap. Issues name the
// field in the caller's own document (`allowlist.3.params.command`, `rules.0.when.1.value`).
import { PolicyValidationError, type PolicyIssue } from './errors';
import { detectFormat, importPolicy } from './import';
import { DRAFT_LIMITS } from './limits';
import { expandedSize } from './regex';
import type { Policy } from './types';

const SEED_LISTS = ['allowlist', 'deny', 'allowOnce'] as const;

/** importPolicy for a caller-supplied policy: throws PolicyValidationError when it breaks a limit or is invalid. */
export function importDraftPolicy(doc: unknown, limits = DRAFT_LIMITS): Policy {
  const issues = draftIssues(doc, limits);
  if (issues.length > 0) throw new PolicyValidationError(issues, 'permissions');
  if (detectFormat(doc) !== 'claude_code_settings') return importPolicy(doc);
  // One Claude Code entry may become several rules (Read: read_file and list_files): the entries
  // were counted above (so converting stays cheap), the rules they became are counted here.
  const converted = importPolicy(doc);
  const after = draftIssues(converted, limits);
  if (after.length > 0) throw new PolicyValidationError(after, 'permissions');
  return converted;
}

const CLAUDE_CODE_LISTS = ['allow', 'ask', 'deny'] as const;

/** The lists of rules (or rule strings) a draft document holds, by the path that names them. */
function ruleLists(format: ReturnType<typeof detectFormat>, record: Record<string, unknown>): [string, unknown[]][] {
  if (format === 'seed_permissions')
    return SEED_LISTS.filter((k) => Array.isArray(record[k])).map((k) => [k, record[k] as unknown[]]);
  if (format === 'claude_code_settings') {
    const permissions = record.permissions as Record<string, unknown>;
    return CLAUDE_CODE_LISTS.filter((k) => Array.isArray(permissions[k])).map((k) => [
      `permissions.${k}`,
      permissions[k] as unknown[],
    ]);
  }
  return Array.isArray(record.rules) ? [['rules', record.rules]] : [];
}

export function draftIssues(doc: unknown, limits = DRAFT_LIMITS): PolicyIssue[] {
  const format = detectFormat(doc);
  const record = doc as Record<string, unknown>;
  const issues: PolicyIssue[] = [];
  longStrings(doc, [], limits.patternLength, issues);
  const lists = ruleLists(format, record);
  const total = lists.reduce((n, [, list]) => n + list.length, 0);
  if (total > limits.rules) {
    const where = format === 'seed_permissions' ? '' : format === 'claude_code_settings' ? 'permissions' : 'rules';
    issues.push({
      path: where,
      message: `a per-run policy may hold at most ${limits.rules} rules (this one has ${total})`,
    });
  }
  let patterns = 0;
  for (const [name, list] of lists) {
    list.forEach((rule, i) => {
      const count = matcherCount(rule);
      if (count > limits.matchersPerRule)
        issues.push({
          path: `${name}.${i}`,
          message: `a rule of a per-run policy may have at most ${limits.matchersPerRule} params and conditions (this one has ${count})`,
        });
      patterns += patternSize(rule);
    });
  }
  if (patterns > limits.totalPatternLength) {
    issues.push({
      path: format === 'seed_permissions' ? '' : 'rules',
      message: `the patterns of a per-run policy may total at most ${limits.totalPatternLength.toLocaleString('en-US')} characters, a regex counting the size it expands to (these total ${patterns.toLocaleString('en-US')})`,
    });
  }
  return issues.slice(0, 20);
}

/** Characters of a rule's patterns: param patterns and condition values, a regex by its expanded size. */
function patternSize(rule: unknown): number {
  if (typeof rule !== 'object' || rule === null) return 0;
  const { params, when } = rule as { params?: unknown; when?: unknown };
  let size = 0;
  if (typeof params === 'object' && params !== null)
    for (const value of Object.values(params))
      size += typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
  for (const condition of Array.isArray(when) ? when : when === undefined ? [] : [when]) {
    const { op, value } = (condition ?? {}) as { op?: unknown; value?: unknown };
    if (typeof value === 'string') size += op === 'regex' ? expandedSize(value) : value.length;
  }
  return size;
}

function matcherCount(rule: unknown): number {
  if (typeof rule !== 'object' || rule === null) return 0;
  const { params, when } = rule as { params?: unknown; when?: unknown };
  const paramCount = typeof params === 'object' && params !== null ? Object.keys(params).length : 0;
  const whenCount = Array.isArray(when) ? when.length : when === undefined ? 0 : 1;
  return paramCount + whenCount;
}

/** Every string (and key) longer than `max`, by its path; stops after a few. */
function longStrings(value: unknown, path: (string | number)[], max: number, issues: PolicyIssue[]): void {
  if (issues.length >= 20) return;
  if (path.length > 32) {
    issues.push({ path: path.join('.'), message: 'nested too deeply for a policy' });
    return;
  }
  if (typeof value === 'string') {
    if (value.length > max)
      issues.push({
        path: path.join('.'),
        message: `at most ${max.toLocaleString('en-US')} characters in a per-run policy (this has ${value.length.toLocaleString('en-US')})`,
      });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (typeof key === 'string' && key.length > max) {
      issues.push({
        path: [...path, key.slice(0, 40)].join('.'),
        message: `a name of at most ${max.toLocaleString('en-US')} characters in a per-run policy`,
      });
      continue;
    }
    longStrings(child, [...path, key], max, issues);
  }
}
