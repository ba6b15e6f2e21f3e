// The state of one command's analysis, shared by the script walk (parse.ts) and the handling of
// each simple command (command.ts).
import type { Assignment, Word } from 'unbash';
import type { Dirs } from './dirs';
import type { ScriptFacts } from './facts';
import type { ShellPart, ShellWord } from './types';
import { literalWord } from './words';

export interface State {
  parts: ShellPart[];
  hasSubstitution: boolean;
  /** A risky variable assigned by a statement of its own (`PATH=/tmp; ls`, `export LD_PRELOAD=x`). */
  riskyEnv?: string;
  truncated?: boolean;
  /** Syntax elements counted so far, nested scripts included (bounded by MAX_ELEMENTS). */
  elements: number;
  /** The variables of the script being visited. */
  facts?: ScriptFacts;
  /** The syntax node each word came from, for the builtins that evaluate their arguments. */
  nodes: Map<ShellWord, Word | Assignment>;
  /** The source may change directory (dirs.ts mayChangeDir): only then are directories tracked. */
  tracksDirs: boolean;
  /** Where the part being visited may run. */
  dirs: Dirs;
  /** The source mentions CDPATH: `cd name` may go elsewhere. */
  cdpath: boolean;
  /** Analyses a script found inside the command (`bash -c`, `eval`, a `trap` action). */
  script(source: string, depth: number, views: ShellWord[][], privileged: number): void;
}

export function opaquePart(text: string, reason: string, views: ShellWord[][] = []): ShellPart {
  const words = text.trim() === '' ? [] : [literalWord(text)];
  return {
    words,
    views: [...views, words],
    text,
    program: '',
    opaque: reason,
    writesFile: false,
    openArgs: false,
    shellFromStdin: false,
  };
}
