// Input that the database cannot store is refused at the edge with a 400 naming the field, instead
// of failing deep inside a query as a 500: NUL characters (PostgreSQL text and jsonb cannot hold
// U+0000), lone surrogates (`"\ud800"` parses to a string no UTF-8 store can hold: jsonb refuses
// the escape, text would silently become U+FFFD), absurdly deep JSON, integers past PostgreSQL's
// `integer`, dates outside the range both PostgreSQL and JavaScript can represent, and pagination cursors whose key is such a date.
import { z } from 'zod';
import { decodeCursor } from '../../db/pagination';
import { AppError, type FieldError } from './errors';

/** The largest value of a PostgreSQL `integer` column (sequence numbers, policy versions). */
export const MAX_INT4 = 2_147_483_647;

/** How deep a JSON body may nest. Real requests (policies, tool params) stay far below it. */
export const MAX_JSON_DEPTH = 64;

const NUL_MESSAGE = 'must not contain NUL (U+0000) characters';
const SURROGATE_MESSAGE = 'must not contain a lone surrogate (e.g. \\ud800): text must be valid Unicode';

// A high surrogate not followed by a low one, or a low one not preceded by a high one. Without the
// `u` flag a regular expression sees UTF-16 code units, which is what this is about.
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE);
const UNSTORABLE_CHARS = new RegExp(`\\u0000|${LONE_SURROGATE}`, 'g');

/** Why a string cannot be stored, if it cannot. */
function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (HAS_LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return undefined;
}

/** A key as an error path shows it: the characters that made it unstorable written as escapes. */
const printableKey = (key: string) =>
  key.replace(UNSTORABLE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The first problem of a parsed JSON value that no store can hold: a NUL character or a lone
 * surrogate in a string or a key, or nesting deeper than `maxDepth`. Iterative, so a hostile body
 * cannot overflow the stack.
 */
export function findUnstorable(value: unknown, maxDepth = MAX_JSON_DEPTH): FieldError | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value: v, path } = item;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { path: path.join('.'), message: problem };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxDepth) return { path: path.join('.'), message: `nests deeper than ${maxDepth} levels` };
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((child, i) => [String(i), child]) : Object.entries(v);
    for (const [key, child] of entries) {
      const problem = textProblem(key);
      if (problem) return { path: [...path, printableKey(key)].join('.'), message: `key ${problem}` };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/** Throws a 400 naming the field when a parsed body holds something no store can hold. */
export function assertStorable(value: unknown, what = 'request'): void {
  const problem = findUnstorable(value);
  if (problem) throw AppError.badRequest(`Invalid ${what}: ${problem.path || '(body)'} ${problem.message}`, [problem]);
}

/** Throws a 400 when a query or path parameter holds a NUL character. */
export function assertNoNul(values: Record<string, string>, what: string): void {
  for (const [key, value] of Object.entries(values)) {
    if (value.includes('\u0000') || key.includes('\u0000')) {
      throw AppError.badRequest(`Invalid ${what}: ${key} ${NUL_MESSAGE}`, [
        { path: key.replaceAll('\u0000', '\\u0000'), message: NUL_MESSAGE },
      ]);
    }
  }
}

// 0001-01-01 to 9999-12-31 (UTC): inside both PostgreSQL's timestamptz and JavaScript's Date.
const MIN_DATE = -62_135_596_800_000;
const MAX_DATE = 253_402_300_799_999;

const inDateRange = (date: Date) => date.getTime() >= MIN_DATE && date.getTime() <= MAX_DATE;

/** A query-string date (ISO 8601 or epoch-free date text) inside the storable range. */
export const StorableDate = z.coerce
  .date({ error: 'must be a date, e.g. 2025-01-31 or 2025-01-31T12:00:00Z' })
  .refine(inDateRange, 'must be a date between 0001-01-01 and 9999-12-31');

/** A pagination cursor as the list routes hand them out (opaque to clients). */
export const CursorParam = z
  .string()
  .min(1)
  .max(1_000)
  .refine((cursor) => {
    try {
      const { at, id } = decodeCursor(cursor);
      // An id PostgreSQL could not take (a NUL) would be its error, a 500: it is not ours anyway.
      return inDateRange(at) && textProblem(id) === undefined;
    } catch {
      return false;
    }
  }, 'not a cursor this API handed out');
