// Reads sed scripts and awk programs just far enough to find what writes a file or runs a
// command: sed's `e`, `w`, `W` commands and `s///e`, `s///w` flags; awk's `system()`, pipes
// (`|`, `|&`), output redirections in `print`/`printf` and gawk's `@load`/`@include`. Anything
// the reader does not understand counts as dangerous. Linear in the text.

/** Why a sed script is dangerous, or undefined if it only edits its input stream. */
export function sedScriptDanger(script: string): string | undefined {
  const s = script;
  let i = 0;
  const skipBlank = () => {
    while (i < s.length && /[\s;]/.test(s[i]!)) i++;
  };
  const toLineEnd = () => {
    while (i < s.length && s[i] !== '\n') i++;
  };
  /** Skips a delimited part (`/re/`, the parts of `s` and `y`); false if it does not end. */
  const delimited = (delim: string): boolean => {
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === delim) {
        i++;
        return true;
      } else if (c === '\n' && delim !== '\n') return false;
      else i++;
    }
    return false;
  };
  const address = (): boolean => {
    const c = s[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < s.length && /[\d~]/.test(s[i]!)) i++;
    } else if (c === '$') i++;
    else if (c === '/') {
      i++;
      if (!delimited('/')) return false;
      while (s[i] === 'I' || s[i] === 'M') i++;
    } else if (c === '\\') {
      const delim = s[i + 1];
      if (delim === undefined) return false;
      i += 2;
      if (!delimited(delim)) return false;
      while (s[i] === 'I' || s[i] === 'M') i++;
    }
    return true;
  };
  for (let guard = 0; guard <= s.length; guard++) {
    skipBlank();
    if (i >= s.length) return undefined;
    if (s[i] === '#') {
      toLineEnd();
      continue;
    }
    if (!address()) return 'is a sed script the engine cannot read';
    if (s[i] === ',') {
      i++;
      if (s[i] === '+' || s[i] === '~') i++;
      if (!address()) return 'is a sed script the engine cannot read';
    }
    while (s[i] === ' ' || s[i] === '\t' || s[i] === '!') i++;
    const command = s[i++];
    if (command === undefined) return undefined;
    if ('{}=dDgGhHlnNpPxzFqQLv'.includes(command)) {
      // q, Q, l, L take an optional number; v an optional version.
      while (i < s.length && /[\w.]/.test(s[i]!)) i++;
      continue;
    }
    if ('aic'.includes(command)) {
      // Text to the end of the line; a backslash at the end continues it.
      while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
      continue;
    }
    if ('btT:rR'.includes(command)) {
      // A label or a file to read, to the end of the line (a label also ends at `;`).
      while (i < s.length && s[i] !== '\n' && !(command !== 'r' && command !== 'R' && s[i] === ';')) i++;
      continue;
    }
    if (command === 'w' || command === 'W') return `writes a file (the \`${command}\` command)`;
    if (command === 'e') return 'runs a shell command (the `e` command)';
    if (command === 's' || command === 'y') {
      const delim = s[i++];
      if (delim === undefined || delim === '\n' || delim === '\\') return 'is a sed script the engine cannot read';
      if (!delimited(delim) || !delimited(delim)) return 'is a sed script the engine cannot read';
      if (command === 'y') continue;
      while (i < s.length && /[gpiImMe0-9w]/.test(s[i]!)) {
        if (s[i] === 'e') return 'runs the result as a shell command (the `s///e` flag)';
        if (s[i] === 'w') return 'writes a file (the `s///w` flag)';
        i++;
      }
      continue;
    }
    return 'is a sed script the engine cannot read';
  }
  return 'is a sed script the engine cannot read';
}

/** Where a `/` starts a regular expression rather than a division. */
const REGEX_BEFORE = new Set(['', '(', ',', '~', '{', ';', '!', '&', '|', '=', '\n', ':', '?', '}']);

/** Why an awk program is dangerous, or undefined if it only reads its input and prints. */
export function awkProgramDanger(program: string): string | undefined {
  const s = program;
  let prev = '';
  let inPrint = false;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
      prev = '"';
      continue;
    }
    if (c === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      prev = '\n';
      continue;
    }
    if (c === '/' && REGEX_BEFORE.has(prev)) {
      for (i++; i < s.length && s[i] !== '/'; i++) {
        if (s[i] === '\\') i++;
        else if (s[i] === '[') while (i + 1 < s.length && s[i + 1] !== ']') i++;
      }
      prev = '/';
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < s.length && /\w/.test(s[j]!)) j++;
      const word = s.slice(i, j);
      if (word === 'system') return 'runs a shell command (`system()`)';
      if (word === 'print' || word === 'printf') {
        inPrint = true;
        depth = 0;
      }
      i = j - 1;
      prev = 'a';
      continue;
    }
    if (c === '@') return 'loads code (gawk `@load`/`@include`)';
    if (c === '|') {
      if (s[i + 1] === '|') {
        i++;
        prev = '|';
        continue;
      }
      return 'runs a shell command (a pipe, `|`)';
    }
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' || c === '\n' || c === '}' || c === '{') inPrint = false;
    else if (c === '>' && inPrint && depth === 0) return 'writes a file (`print >`)';
    if (!/\s/.test(c) || c === '\n') prev = c;
  }
  return undefined;
}
