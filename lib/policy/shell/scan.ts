// Finds characters a terminal or a reviewer would not see: control characters (Cc) other than tab
// and newline, format characters (Cf: bidi overrides and isolates, zero-width spaces and joiners,
// the BOM, U+061C, tag characters) and the line and paragraph separators U+2028/2029. A command
// holding one anywhere, inside quotes, comments and heredocs included, is opaque: what the human
// reads may not be what bash runs (a right-to-left override inside a quoted word reorders the
// text after it on screen).
const INVISIBLE = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** Printable ASCII, tab and newline: the usual command, checked first because it is cheaper. */
const PLAIN = /^[\x20-\x7e\t\n]*$/;

/** Index of the first invisible character in `source`, or -1. */
export function findInvisible(source: string): number {
  return PLAIN.test(source) ? -1 : source.search(INVISIBLE);
}

/** `U+202E`, the code point at `index` as shown in explanations. */
export function codePointLabel(source: string, index: number): string {
  return `U+${(source.codePointAt(index) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
