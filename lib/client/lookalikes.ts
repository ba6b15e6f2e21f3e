// Letters of other scripts that pass for Latin ones (reveal.ts marks them inside a Latin word):
// which scripts, which letters, and what each is called.

/** Scripts whose letters can pass for Latin ones. */
export const FOREIGN = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
export const LATIN = /\p{Script=Latin}/u;
const SCRIPTS: ReadonlyArray<[string, RegExp]> = [
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];

/**
 * Letters of other scripts drawn like a Latin one (after Unicode's confusables): the Latin letter
 * each passes for, and its Unicode name.
 */
const LOOKALIKES: Record<number, readonly [latin: string, name: string]> = {
  0x0391: ['A', 'GREEK CAPITAL LETTER ALPHA'],
  0x0392: ['B', 'GREEK CAPITAL LETTER BETA'],
  0x0395: ['E', 'GREEK CAPITAL LETTER EPSILON'],
  0x0396: ['Z', 'GREEK CAPITAL LETTER ZETA'],
  0x0397: ['H', 'GREEK CAPITAL LETTER ETA'],
  0x0399: ['I', 'GREEK CAPITAL LETTER IOTA'],
  0x039a: ['K', 'GREEK CAPITAL LETTER KAPPA'],
  0x039c: ['M', 'GREEK CAPITAL LETTER MU'],
  0x039d: ['N', 'GREEK CAPITAL LETTER NU'],
  0x039f: ['O', 'GREEK CAPITAL LETTER OMICRON'],
  0x03a1: ['P', 'GREEK CAPITAL LETTER RHO'],
  0x03a4: ['T', 'GREEK CAPITAL LETTER TAU'],
  0x03a5: ['Y', 'GREEK CAPITAL LETTER UPSILON'],
  0x03a7: ['X', 'GREEK CAPITAL LETTER CHI'],
  0x03b1: ['a', 'GREEK SMALL LETTER ALPHA'],
  0x03b9: ['i', 'GREEK SMALL LETTER IOTA'],
  0x03ba: ['k', 'GREEK SMALL LETTER KAPPA'],
  0x03bd: ['v', 'GREEK SMALL LETTER NU'],
  0x03bf: ['o', 'GREEK SMALL LETTER OMICRON'],
  0x03c1: ['p', 'GREEK SMALL LETTER RHO'],
  0x03c5: ['u', 'GREEK SMALL LETTER UPSILON'],
  0x03f2: ['c', 'GREEK LUNATE SIGMA SYMBOL'],
  0x03f3: ['j', 'GREEK LETTER YOT'],
  0x0405: ['S', 'CYRILLIC CAPITAL LETTER DZE'],
  0x0406: ['I', 'CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I'],
  0x0408: ['J', 'CYRILLIC CAPITAL LETTER JE'],
  0x0410: ['A', 'CYRILLIC CAPITAL LETTER A'],
  0x0412: ['B', 'CYRILLIC CAPITAL LETTER VE'],
  0x0415: ['E', 'CYRILLIC CAPITAL LETTER IE'],
  0x041a: ['K', 'CYRILLIC CAPITAL LETTER KA'],
  0x041c: ['M', 'CYRILLIC CAPITAL LETTER EM'],
  0x041d: ['H', 'CYRILLIC CAPITAL LETTER EN'],
  0x041e: ['O', 'CYRILLIC CAPITAL LETTER O'],
  0x0420: ['P', 'CYRILLIC CAPITAL LETTER ER'],
  0x0421: ['C', 'CYRILLIC CAPITAL LETTER ES'],
  0x0422: ['T', 'CYRILLIC CAPITAL LETTER TE'],
  0x0423: ['Y', 'CYRILLIC CAPITAL LETTER U'],
  0x0425: ['X', 'CYRILLIC CAPITAL LETTER HA'],
  0x0430: ['a', 'CYRILLIC SMALL LETTER A'],
  0x0435: ['e', 'CYRILLIC SMALL LETTER IE'],
  0x043e: ['o', 'CYRILLIC SMALL LETTER O'],
  0x0440: ['p', 'CYRILLIC SMALL LETTER ER'],
  0x0441: ['c', 'CYRILLIC SMALL LETTER ES'],
  0x0443: ['y', 'CYRILLIC SMALL LETTER U'],
  0x0445: ['x', 'CYRILLIC SMALL LETTER HA'],
  0x0455: ['s', 'CYRILLIC SMALL LETTER DZE'],
  0x0456: ['i', 'CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I'],
  0x0458: ['j', 'CYRILLIC SMALL LETTER JE'],
  0x0475: ['v', 'CYRILLIC SMALL LETTER IZHITSA'],
  0x04ae: ['Y', 'CYRILLIC CAPITAL LETTER STRAIGHT U'],
  0x04af: ['y', 'CYRILLIC SMALL LETTER STRAIGHT U'],
  0x04bb: ['h', 'CYRILLIC SMALL LETTER SHHA'],
  0x04c0: ['I', 'CYRILLIC LETTER PALOCHKA'],
  0x04cf: ['l', 'CYRILLIC SMALL LETTER PALOCHKA'],
  0x0500: ['D', 'CYRILLIC CAPITAL LETTER KOMI DE'],
  0x0501: ['d', 'CYRILLIC SMALL LETTER KOMI DE'],
  0x051a: ['Q', 'CYRILLIC CAPITAL LETTER QA'],
  0x051b: ['q', 'CYRILLIC SMALL LETTER QA'],
  0x051c: ['W', 'CYRILLIC CAPITAL LETTER WE'],
  0x051d: ['w', 'CYRILLIC SMALL LETTER WE'],
  0x0570: ['h', 'ARMENIAN SMALL LETTER HO'],
  0x0578: ['n', 'ARMENIAN SMALL LETTER VO'],
  0x057d: ['u', 'ARMENIAN SMALL LETTER SEH'],
  0x0581: ['g', 'ARMENIAN SMALL LETTER CO'],
  0x0585: ['o', 'ARMENIAN SMALL LETTER OH'],
};

/** What a non-Latin letter in a Latin word is: its name and the letter it passes for, or its script. */
export function lookalikeName(code: number): string {
  const known = LOOKALIKES[code];
  if (known) return `${known[1]}, looks like Latin ${known[0]}`;
  const letter = String.fromCodePoint(code);
  const script = SCRIPTS.find(([, pattern]) => pattern.test(letter))?.[0] ?? 'Non-Latin';
  return `${script} letter in a Latin word`;
}

let foreignTable: Uint8Array | undefined;

/**
 * Whether a character is of a look-alike script. The BMP, where nearly all of them are, is tabled
 * on first use: a hostile word can hold a million of them.
 */
export function isForeign(code: number): boolean {
  if (code > 0xffff) return FOREIGN.test(String.fromCodePoint(code));
  if (!foreignTable) {
    foreignTable = new Uint8Array(0x10000);
    for (let c = 0x370; c < 0x10000; c++) foreignTable[c] = FOREIGN.test(String.fromCharCode(c)) ? 1 : 0;
  }
  return foreignTable[code] === 1;
}

const LETTER = /\p{L}/u;

/**
 * Whether a word without Latin letters still reads as Latin: it has letters, and every one of them
 * passes for a Latin letter (`сор`, `РАУРАL`). Russian or Greek words hold letters that do not.
 */
export function readsAsLatin(word: string): boolean {
  let letters = 0;
  for (const char of word) {
    if (!LETTER.test(char)) continue;
    if (LOOKALIKES[char.codePointAt(0)!] === undefined) return false;
    letters += 1;
  }
  return letters > 0;
}
