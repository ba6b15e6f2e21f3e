// What a stored difference keeps of a call and a decision: enough to see why they differ, bounded
// in size (a write_file's content is cut), since differences are kept until the shadow changes.
import type { Decision } from '../../policy';

const MAX_STRING = 500;
const MAX_ENTRIES = 50;

export function describeDecision(decision: Decision): Record<string, unknown> {
  return {
    action: decision.action,
    reason: decision.reason,
    explanation: cut(decision.explanation),
    ...(decision.rule ? { rule: decision.rule } : {}),
  };
}

/** The call's parameters with long strings cut and large objects and arrays shortened. */
export function storedParams(params: Record<string, unknown>): Record<string, unknown> {
  return bounded(params, 0) as Record<string, unknown>;
}

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return cut(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 4) return '[...]';
  if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((v) => bounded(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, MAX_ENTRIES)
      .map(([k, v]) => [k, bounded(v, depth + 1)]),
  );
}

function cut(text: string): string {
  return text.length <= MAX_STRING ? text : `${text.slice(0, MAX_STRING)}... (${text.length} characters)`;
}
