// How large a JSON value is, measured without serializing it: characters of its strings and keys
// plus one per value, counting stops once past `max` (so the cost is bounded by `max`, not by the
// value), and anything nested deeper than MAX_JSON_DEPTH counts as too large.
export const MAX_JSON_DEPTH = 16;

/** The value's size, or a number above `max` as soon as it is known to exceed it. */
export function jsonSize(value: unknown, max: number): number {
  let size = 0;
  const visit = (v: unknown, depth: number): boolean => {
    if (depth > MAX_JSON_DEPTH) return false;
    size += 1;
    if (typeof v === 'string') size += v.length;
    else if (typeof v === 'object' && v !== null) {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        size += key.length;
        if (size > max || !visit((v as Record<string, unknown>)[key], depth + 1)) return false;
      }
    }
    return size <= max;
  };
  return visit(value, 0) ? size : max + 1;
}
