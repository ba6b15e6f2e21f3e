// Text, word and URL globs: the same answers as the regular expressions they replace, in time
// linear in the value whatever the pattern.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTextGlob, compileWordGlob, escapeRegex, type WordGlobPart } from './glob';
import { compileUrlPattern } from './urls';

/** The regex a text glob used to compile to (the reference for its meaning). */
function referenceTextGlob(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) out += escapeRegex(pattern[++i]!);
    else if (ch === '*') {
      while (pattern[i + 1] === '*') i++;
      out += '[\\s\\S]*';
    } else if (ch === '?') out += '[\\s\\S]';
    else out += escapeRegex(ch);
  }
  return new RegExp(`^${out}$`);
}

/** The regex a URL pattern used to compile to, given its normalized form. */
function referenceUrl(normalized: string): RegExp {
  const schemeEnd = normalized.indexOf('://');
  let authorityEnd = normalized.length;
  for (let i = schemeEnd < 0 ? 0 : schemeEnd + 3; i < normalized.length; i++) {
    if ('/?#'.includes(normalized[i]!)) {
      authorityEnd = i;
      break;
    }
  }
  if (schemeEnd < 0) authorityEnd = 0;
  let source = '';
  for (let i = 0; i < normalized.length; i++) {
    const ch = normalized[i]!;
    if (ch === '*') {
      let stars = 1;
      while (normalized[i + 1] === '*') {
        i++;
        stars++;
      }
      source += i < authorityEnd ? '[^/?#@]*' : stars > 1 ? '.*' : '[^/?#]*';
    } else source += escapeRegex(ch);
  }
  return new RegExp(`^${source.replace(/\\\/\.\*$/, '(?:/.*)?')}$`, 's');
}

/** Milliseconds one call takes. */
function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// Backtracking engines took seconds on these; a linear matcher takes well under a millisecond
// per 100,000 characters. The budget is generous (100x) for a loaded machine.
const BUDGET_MS = 100;

describe('text globs', () => {
  const alphabet = fc.constantFrom('a', 'b', '*', '?', '\\', '**', '\n');
  const patterns = fc.array(alphabet, { maxLength: 8 }).map((xs) => xs.join(''));
  const values = fc.array(fc.constantFrom('a', 'b', '*', '?', '\\', '\n'), { maxLength: 10 }).map((xs) => xs.join(''));

  it('a text glob matches exactly what its regular expression matched', () => {
    fc.assert(
      fc.property(patterns, fc.array(values, { maxLength: 10 }), (pattern, vs) => {
        const ours = compileTextGlob(pattern);
        const reference = referenceTextGlob(pattern);
        for (const v of vs)
          expect(ours(v), `${JSON.stringify(pattern)} on ${JSON.stringify(v)}`).toBe(reference.test(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('a text glob is linear: *a*a*a*b against 100,000 characters (2.4 s for 300 before)', () => {
    const value = 'a'.repeat(100_000);
    for (const pattern of [
      '*a*a*a*b',
      '*a*a*a*a*a*a*a*a*a*a*b',
      '*?a?*?a?*b',
      `${'*a'.repeat(500)}b`,
      '?'.repeat(1000) + '*b',
    ]) {
      const match = compileTextGlob(pattern);
      expect(timed(() => expect(match(value)).toBe(false))).toBeLessThan(BUDGET_MS);
    }
  });
});

describe('shell word globs', () => {
  const part = fc.constantFrom<WordGlobPart>(
    { literal: 'a' },
    { literal: 'b.' },
    { star: true },
    { question: true },
    { bracket: '[ab]' },
    { bracket: '[!a]' },
    { bracket: '[^b]' },
    { bracket: '[a-c]' },
    { bracket: '[]]' },
  );
  const reference = (parts: WordGlobPart[]) => {
    let source = '';
    for (const p of parts) {
      if ('literal' in p) source += escapeRegex(p.literal);
      else if ('star' in p) source += '[\\s\\S]*';
      else if ('question' in p) source += '[\\s\\S]';
      else {
        const body = p.bracket.slice(1, -1);
        const negate = body.startsWith('!') || body.startsWith('^');
        source += `[${negate ? '^' : ''}${(negate ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
      }
    }
    return new RegExp(`^${source}$`);
  };

  it('a word glob matches exactly what its regular expression matched', () => {
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 6 }),
        fc.array(fc.stringMatching(/^[ab.c\]!^]{0,8}$/), { maxLength: 10 }),
        (parts, vs) => {
          const ours = compileWordGlob(parts);
          const regex = reference(parts);
          for (const v of vs) expect(ours.test(v)).toBe(regex.test(v));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a word glob is linear in the word', () => {
    const parts: WordGlobPart[] = [];
    for (let i = 0; i < 50; i++) parts.push({ star: true }, { bracket: '[a]' });
    parts.push({ literal: 'b' });
    const match = compileWordGlob(parts);
    expect(timed(() => expect(match.test('a'.repeat(100_000))).toBe(false))).toBeLessThan(BUDGET_MS);
  });
});

describe('URL globs', () => {
  const urlPatterns = fc
    .tuple(
      fc.constantFrom('https://', 'http://'),
      fc.constantFrom('x.com', '*.x.com', '*', 'x*', 'a.*.com'),
      fc
        .array(fc.constantFrom('/', 'a', '*', '**', '?', '#', '@', '.', 'q=1'), { maxLength: 6 })
        .map((xs) => xs.join('')),
    )
    .map(([scheme, host, rest]) => `${scheme}${host}${rest.startsWith('/') || rest === '' ? rest : `/${rest}`}`);
  const urls = fc
    .tuple(
      fc.constantFrom('https://x.com', 'https://a.x.com', 'http://x.com', 'https://ab.c.com', 'https://x.com:8080'),
      fc.array(fc.constantFrom('/', 'a', 'b', '?', '=', '#', '@', '.', '%2F'), { maxLength: 8 }),
    )
    .map(([origin, rest]) => `${origin}/${rest.join('')}`);

  it('a URL glob matches exactly what its regular expression matched', () => {
    fc.assert(
      fc.property(urlPatterns, fc.array(urls, { maxLength: 10 }), (pattern, hrefs) => {
        const ours = compileUrlPattern(pattern);
        // The reference gets the same normalized pattern the matcher saw.
        const normalized = pattern.replace(/^(https?:\/\/[^/?#]*)$/, '$1/');
        const regex = referenceUrl(normalized);
        for (const href of hrefs) expect(ours.test(href), `${pattern} on ${href}`).toBe(regex.test(href));
      }),
      { numRuns: 1000 },
    );
  });

  it('a URL glob is linear in the URL, stars in the path and after ** included', () => {
    const href = `https://x.com/${'a'.repeat(100_000)}`;
    for (const pattern of [
      'https://x.com/*a*a*a*a*b',
      'https://x.com/**a**a**a**b',
      'https://x.com/**/a*a*a*b',
      'https://*a*a*a*b.com/*',
    ]) {
      const match = compileUrlPattern(pattern);
      expect(timed(() => expect(match.test(href)).toBe(false))).toBeLessThan(BUDGET_MS);
    }
  });
});
