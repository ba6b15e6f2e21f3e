// Linear-time wildcard matching: the core of the engine's globs (text globs, URL globs, the
// segments of path globs; shell word globs can use it too). A pattern is a list of pieces joined
// by stars. A piece is a run of one-character atoms (a literal code unit, any code unit, or a
// class); a star matches any run of characters, optionally never one of a set (a URL's `*` never
// crosses a `/`). Regular-expression engines backtrack on such patterns (`*a*a*a*b` against 300
// characters took seconds); this matcher never does.
//
// Matching is greedy: the first and last pieces are anchored, each middle piece is found at its
// leftmost position after the previous one. That is exact when every star is at least as
// permissive as the stars after it (the sets they exclude only shrink) and pieces after a
// restricted star are literal; `compileWildcard` refuses other patterns (callers fall back to
// RE2). Work: O(n + m) when pieces are literal (indexOf), O(n * longest non-literal piece)
// otherwise; `weight` is that per-character bound, for the evaluation's work budget.

export type Atom = number | 'any' | ((code: number) => boolean);

/** Characters a star never matches ('' for none). */
export interface StarToken {
  star: string;
}

export type WildcardToken = Atom | StarToken;

interface Piece {
  atoms: Atom[];
  /** The piece as a string, when every atom is a literal code unit. */
  literal?: string;
  /** Per atom: its code unit, ANY_CODE, or CLASS_CODE (then `classes` holds its test). */
  codes: Int32Array;
  classes: ((code: number) => boolean)[];
}

const ANY_CODE = -1;
const CLASS_CODE = -2;

export interface WildcardMatcher {
  test(value: string): boolean;
  /** Upper bound of the steps one test costs per character of the value (plus the pattern's length). */
  readonly weight: number;
}

export function isStar(token: WildcardToken): token is StarToken {
  return typeof token === 'object';
}

function pieceOf(atoms: Atom[]): Piece {
  const codes = Int32Array.from(atoms, (a) => (typeof a === 'number' ? a : a === 'any' ? ANY_CODE : CLASS_CODE));
  const classes = atoms.map((a) => (typeof a === 'function' ? a : () => true));
  const literal = atoms.every((a) => typeof a === 'number') ? String.fromCharCode(...(atoms as number[])) : undefined;
  return literal === undefined ? { atoms, codes, classes } : { atoms, literal, codes, classes };
}

/** Compiles tokens; undefined if greedy matching would not be exact for them (see the header). */
export function compileWildcard(tokens: readonly WildcardToken[]): WildcardMatcher | undefined {
  const pieces: Piece[] = [];
  const stars: string[] = [];
  let atoms: Atom[] = [];
  for (const token of tokens) {
    if (!isStar(token)) {
      atoms.push(token);
      continue;
    }
    // Adjacent stars: one star excluding what both exclude... only equal sets are merged.
    if (atoms.length === 0 && stars.length > 0 && pieces.length === stars.length) {
      const previous = stars[stars.length - 1]!;
      if (previous !== token.star) return undefined;
      continue;
    }
    pieces.push(pieceOf(atoms));
    stars.push(token.star);
    atoms = [];
  }
  pieces.push(pieceOf(atoms));
  for (let i = 0; i < stars.length; i++) {
    const excluded = stars[i]!;
    if (i + 1 < stars.length && ![...stars[i + 1]!].every((ch) => excluded.includes(ch))) return undefined;
    if (excluded !== '' && (pieces[i + 1]!.literal === undefined || pieces[i]!.literal === undefined)) return undefined;
  }
  let longest = 0;
  for (const piece of pieces) if (piece.literal === undefined) longest = Math.max(longest, piece.atoms.length);
  // A naive scan of a non-literal piece tests each of its atoms at each place (about 4 steps each).
  const weight = 1 + 4 * longest;
  const only = pieces[0]!;
  if (stars.length === 0) {
    const literal = only.literal;
    if (literal !== undefined) return { weight, test: (value) => value === literal };
    return { weight, test: (value) => value.length === only.atoms.length && matchesAt(only, value, 0) };
  }
  if (stars.some((star) => star !== '')) return { weight, test: (value) => matchStars(pieces, stars, value) };
  // Stars that match anything (text globs, path segments): the common shapes are one string operation.
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  if (pieces.length === 2 && head.literal !== undefined && tail.literal !== undefined) {
    const [h, t] = [head.literal, tail.literal];
    const min = h.length + t.length;
    if (t === '') return { weight, test: (value) => value.startsWith(h) };
    if (h === '') return { weight, test: (value) => value.endsWith(t) };
    return { weight, test: (value) => value.length >= min && value.startsWith(h) && value.endsWith(t) };
  }
  if (pieces.length === 3 && head.literal === '' && tail.literal === '' && pieces[1]!.literal !== undefined) {
    const middle = pieces[1]!.literal;
    return { weight, test: (value) => value.includes(middle) };
  }
  return { weight, test: (value) => matchFree(pieces, value) };
}

/** Greedy matching when every star matches anything: anchored ends, each middle piece leftmost. */
function matchFree(pieces: Piece[], value: string): boolean {
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  const end = value.length - tail.atoms.length;
  if (end < head.atoms.length || !matchesAt(head, value, 0) || !matchesAt(tail, value, end)) return false;
  let pos = head.atoms.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    const at = leftmost(piece, value, pos, end - piece.atoms.length);
    if (at < 0) return false;
    pos = at + piece.atoms.length;
  }
  return true;
}

function matchesAt(piece: Piece, value: string, at: number): boolean {
  if (piece.literal !== undefined) return value.startsWith(piece.literal, at);
  const codes = piece.codes;
  if (at + codes.length > value.length) return false;
  for (let k = 0; k < codes.length; k++) {
    const want = codes[k]!;
    if (want === ANY_CODE) continue;
    const code = value.charCodeAt(at + k);
    if (want === CLASS_CODE ? !piece.classes[k]!(code) : want !== code) return false;
  }
  return true;
}

function firstExcluded(value: string, from: number, to: number, excluded: string): number {
  if (excluded === '') return to;
  for (let i = from; i < to; i++) {
    if (excluded.includes(value[i]!)) return i;
  }
  return to;
}

/** Leftmost start in [from, last] where the piece matches, or -1. */
function leftmost(piece: Piece, value: string, from: number, last: number): number {
  if (piece.literal !== undefined) {
    const at = value.indexOf(piece.literal, from);
    return at >= 0 && at <= last ? at : -1;
  }
  for (let at = from; at <= last; at++) if (matchesAt(piece, value, at)) return at;
  return -1;
}

/** Greedy matching with stars that exclude characters (URL globs); see the header for why it is exact. */
function matchStars(pieces: Piece[], stars: string[], value: string): boolean {
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  const end = value.length - tail.atoms.length;
  if (end < head.atoms.length || !matchesAt(head, value, 0) || !matchesAt(tail, value, end)) return false;
  let pos = head.atoms.length;
  // The first excluded character at or after `pos`, remembered per set so no character is scanned twice.
  let stop = -1;
  let stopSet = '';
  for (let i = 1; i < pieces.length; i++) {
    const excluded = stars[i - 1]!;
    let first = end;
    if (excluded !== '') {
      if (excluded !== stopSet || stop < pos) {
        stop = firstExcluded(value, pos, end, excluded);
        stopSet = excluded;
      }
      first = stop;
    }
    if (i === pieces.length - 1) return first === end;
    const piece = pieces[i]!;
    // The star before this piece must not cover an excluded character: the piece starts at or
    // before the first one, and exactly on it when the piece itself holds an excluded character.
    const last = Math.min(first, end - piece.atoms.length);
    const offset = excluded === '' ? -1 : firstIndexOfAny(piece.literal!, excluded);
    let at: number;
    if (offset >= 0) {
      at = first - offset;
      if (at < pos || at > last || !matchesAt(piece, value, at)) return false;
    } else {
      at = leftmost(piece, value, pos, last);
      if (at < 0) return false;
    }
    pos = at + piece.atoms.length;
  }
  return true;
}

function firstIndexOfAny(text: string, chars: string): number {
  for (let i = 0; i < text.length; i++) if (chars.includes(text[i]!)) return i;
  return -1;
}
