import { describe, expect, it } from 'vitest';
import { execsDirectly } from './spare-bash';

describe('execsDirectly: which commands a spare bash execs in its own place, as bash -c does', () => {
  it.each([
    'date +%s%N',
    'date  +%s',
    'ls -la /tmp',
    'git status',
    'node --version',
    '/usr/bin/env',
    'dd if=/dev/zero of=/dev/null count=1',
    'make -j2 all',
  ])('a lone program with plain words: %s', (command) => expect(execsDirectly(command)).toBe(true));

  it.each([
    ['a builtin', 'echo hi'],
    ['a builtin', 'cd /tmp'],
    ['a builtin', 'exec date'],
    ['a keyword', 'time date'],
    ['an assignment first', 'FOO=1 date'],
    ['a list', 'date; ls'],
    ['a pipeline', 'date | cat'],
    ['an and-list', 'true && date'],
    ['in the background', 'sleep 1 &'],
    ['a redirection', 'cat <file'],
    ['a redirection', 'date >out'],
    ['an expansion', 'ls $HOME'],
    ['a command substitution', 'echo `date`'],
    ['quotes', "date '+%s'"],
    ['a glob', 'ls *.txt'],
    ['a tilde', 'ls ~/x'],
    ['braces', 'echo {a,b}'],
    ['a comment', 'date #x'],
    ['a newline', 'date\nls'],
    ['a leading space', ' date'],
    ['nothing', ''],
  ])('not %s: %j', (_, command) => expect(execsDirectly(command)).toBe(false));
});
