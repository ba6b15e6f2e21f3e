// Allow-once entries are consumed when a decision that used them is acted on. The engine is
// pure, so it only reports what to consume (Decision.consumes); this helper applies it.
import type { Decision } from './types';

/** The grants left after removing the allow-once grants this decision used. */
export function consumeOnce<T>(grants: readonly T[], decision: Decision): T[] {
  const used = new Set(decision.consumes?.grants ?? []);
  if (used.size === 0) return [...grants];
  return grants.filter((_, index) => !used.has(index));
}
