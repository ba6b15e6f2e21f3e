// Pretty JSON (exactly `JSON.stringify(value, null, 2)`) cut into pieces so that each string value
// longer than the limit can be shown shortened on its own: the keys and every other value stay
// readable whatever one value weighs (a 2 MB file write must not hide the path after it).

export interface JsonText {
  kind: 'text';
  text: string;
}

export interface JsonLongString {
  kind: 'long';
  /** Where the value sits, e.g. `content`, `edits[0].new`; empty for a string at the top. */
  path: string;
  /** The value as JSON (quoted, escaped). */
  full: string;
  /** Its first `limit` characters as JSON, with `…` before the closing quote. */
  short: string;
  /** Characters in the value itself. */
  length: number;
  /** The comma that follows the value in the JSON (taken from the next text), so a toggle shown after it ends the line. */
  after: ',' | '';
}

export type JsonPiece = JsonText | JsonLongString;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(parent: string, key: string, inArray: boolean): string {
  if (inArray) return `${parent}[${key}]`;
  const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
  return parent ? `${parent}.${name}` : name;
}

function shorten(value: string, limit: number): string {
  // Never cut a surrogate pair in half (the JSON would show a lone `\ud83d`).
  const code = value.charCodeAt(limit - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  return `${JSON.stringify(value.slice(0, end)).slice(0, -1)}…"`;
}

/**
 * The pieces of `JSON.stringify(value, null, 2)`: concatenating each piece's `text`, or `full`
 * and `after`, gives that text back. A `limit` below 1 shortens nothing. `undefined` (and anything else JSON
 * cannot show) is the text `undefined`.
 */
export function jsonPieces(value: unknown, limit: number): JsonPiece[] {
  const long: string[] = [];
  const paths: string[] = [];
  const where = new WeakMap<object, string>();
  // Placeholders that no real string can produce: a NUL and a nonce, escaped by JSON as \u0000.
  const nonce = Math.random().toString(36).slice(2, 10);
  const text = JSON.stringify(
    value,
    function (this: unknown, key: string, v: unknown) {
      const holder = this as object;
      const path = holder && where.has(holder) ? childPath(where.get(holder)!, key, Array.isArray(holder)) : '';
      if (typeof v === 'string' && limit >= 1 && v.length > limit) {
        long.push(v);
        paths.push(path);
        return `\u0000${nonce}:${long.length - 1}\u0000`;
      }
      if (v !== null && typeof v === 'object' && !where.has(v)) where.set(v, path);
      return v;
    },
    2,
  ) as string | undefined;
  if (text === undefined) return [{ kind: 'text', text: 'undefined' }];
  if (long.length === 0) return [{ kind: 'text', text }];

  const pieces: JsonPiece[] = [];
  const placeholder = new RegExp(`"\\\\u0000${nonce}:(\\d+)\\\\u0000"`, 'g');
  let at = 0;
  for (const match of text.matchAll(placeholder)) {
    if (match.index > at) pieces.push({ kind: 'text', text: text.slice(at, match.index) });
    const i = Number(match[1]);
    const original = long[i]!;
    at = match.index + match[0].length;
    const after = text[at] === ',' ? ',' : '';
    pieces.push({
      kind: 'long',
      path: paths[i]!,
      full: JSON.stringify(original),
      short: shorten(original, limit),
      length: original.length,
      after,
    });
    at += after.length;
  }
  if (at < text.length) pieces.push({ kind: 'text', text: text.slice(at) });
  return pieces;
}
