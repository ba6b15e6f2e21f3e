// What PostgreSQL can hold of text that came from outside: a tool's output, an upstream's tool
// definition, a name cut to length. Its text and jsonb types refuse NUL (U+0000), and jsonb refuses
// a lone surrogate (`\ud83d` without its pair), so a record holding either would fail as a whole,
// after the call it records has run. Such characters are stored as U+FFFD instead. Request bodies
// are refused with a 400 instead (lib/server/http/input.ts): this is for what Gatehouse records.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * In JSON text, the escape of what jsonb refuses: `\u0000`, or a surrogate's (JSON.stringify writes
 * a lone surrogate as an escape, a whole pair as itself). An escape is a `\u` after an even number
 * of backslashes: `\\u0000` is an escaped backslash followed by the text `u0000`.
 */
const UNSTORABLE_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** `text` with NUL and lone surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\ufffd').replace(LONE_SURROGATE, '\ufffd');
}

function storableCopy(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableCopy);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), storableCopy(child)]));
  return value;
}

/**
 * `JSON.stringify(value)`, with every string and key as storableText makes it. The usual value,
 * with nothing to replace, costs one scan of its JSON.
 */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined || !UNSTORABLE_ESCAPE.test(json)) return json;
  return JSON.stringify(storableCopy(JSON.parse(json)));
}

/** `value` as storableJson stores it: itself when nothing needs replacing, else a plain-data copy. */
export function storableValue<T>(value: T): T {
  const json = JSON.stringify(value);
  if (json === undefined || !UNSTORABLE_ESCAPE.test(json)) return value;
  return storableCopy(JSON.parse(json)) as T;
}

/**
 * `text` cut to at most `max` UTF-16 units, never inside a surrogate pair (a name, a title, a
 * preview): the half pair `slice` can leave is a lone surrogate, which jsonb refuses.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
