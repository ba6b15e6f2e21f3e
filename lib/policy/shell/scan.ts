// Finds characters a terminal or a reviewer would not see (CR, other C0 controls, DEL, NEL,
// U+2028/2029, bidi overrides) outside quotes. A command holding one is opaque: what the
// human reads may not be what bash runs.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export function findInvisibleOutsideQuotes(source: string): number {
  if (!INVISIBLE.test(source)) return -1;
  // Inside double quotes a `$(...)` or backtick body is shell code again; when a command has
  // any, double quotes give no cover.
  const quotesCoverCode = !/\$\(|`/.test(source);
  let quote: '' | "'" | '"' | '$' = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quote === "'") {
      if (ch === "'") quote = '';
      continue;
    }
    if (quote === '$') {
      if (ch === '\\') i++;
      else if (ch === "'") quote = '';
      continue;
    }
    if (ch === '\\') {
      const next = source[i + 1];
      // A backslash-newline is a line continuation; a backslash before anything else quotes it,
      // but an escaped control character is still invisible to the reader.
      if (next !== undefined && INVISIBLE.test(next)) return i + 1;
      i++;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = '';
      else if (!quotesCoverCode && INVISIBLE.test(ch)) return i;
      continue;
    }
    if (ch === "'") quote = "'";
    else if (ch === '"') quote = '"';
    else if (ch === '$' && source[i + 1] === "'") {
      quote = '$';
      i++;
    } else if (INVISIBLE.test(ch)) return i;
  }
  return -1;
}
