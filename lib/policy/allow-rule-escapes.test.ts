// The engine against the policy a cautious administrator writes:
// everyday read-only commands allowed by wildcards, `rm` and secrets denied, the rest asks. Each
// row is a trick that was allowed although what runs does more than the rule allows (a program
// run through the environment, a denied file read by another name or another option, a file
// written by an operand); controls keep an engine that asks for everything from passing.
import { describe } from 'vitest';
import { bashRule, check, policyOf, type Row } from './tables/rows';

const cautious = policyOf({
  defaultAction: 'ask',
  rules: [
    bashRule('deny', 'rm *'),
    { action: 'deny', tool: 'read_file', params: { path: '~/.ssh/**' } },
    { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
    ...[
      'git status*',
      'git diff *',
      'ls *',
      'cat *',
      'less *',
      'man *',
      'date *',
      'jq *',
      'diff *',
      'wc *',
      'du *',
      'uniq *',
      'xxd *',
      'tar -tf *',
      'echo *',
    ].map((command) => bashRule('allow', command)),
  ],
});

describe('an environment assignment that makes an allowed program run another one is not allowed', () => {
  check(cautious, [
    [
      'GIT_CONFIG_* sets core.fsmonitor, which git status runs',
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='id >/tmp/p' git status",
      'ask',
    ],
    ['GIT_CONFIG_PARAMETERS sets configuration', `GIT_CONFIG_PARAMETERS="'core.fsmonitor'='id'" git status`, 'ask'],
    ['GIT_EXTERNAL_DIFF runs a program for git diff', 'GIT_EXTERNAL_DIFF=/tmp/x git diff HEAD', 'ask'],
    ['HOME points git at another ~/.gitconfig', 'HOME=/ws/evil git status', 'ask'],
    ['LESSOPEN runs an input preprocessor', "LESSOPEN='|id %s' less notes.txt", 'ask'],
    ['MANPAGER runs a pager program', 'MANPAGER=id man ls', 'ask'],
    ['TAR_OPTIONS adds options (--to-command runs a program)', 'TAR_OPTIONS=--to-command=id tar -tf x.tar', 'ask'],
    [
      'env NAME=value before the program, too',
      'env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=id git status',
      'ask',
    ],
    ['a statement of its own changes an exported LESSOPEN', "LESSOPEN='|id %s'; less notes.txt", 'ask'],
    ['a for loop assigns PATH', 'for PATH in /tmp; do ls; done', 'ask'],
    ['a for loop assigns LESSOPEN', "for LESSOPEN in '|id %s'; do less notes.txt; done", 'ask'],
    ['control: a locale assignment is inert', 'LANG=C ls -la', 'allow'],
    ['control: a time zone assignment is inert', 'TZ=UTC date +%s', 'allow'],
    ['control: a loop over an ordinary variable', 'for f in a b; do echo "$f"; done', 'allow'],
    ['an unknown name is not vouched for', 'FOO=1 ls', 'ask'],
    ['NODE_OPTIONS loads code', 'NODE_OPTIONS=--require=/tmp/x.js ls', 'ask'],
    ['PYTHONPATH loads code', 'PYTHONPATH=/tmp ls', 'ask'],
    [
      'control: the build and log switches Claude Code strips too',
      'NODE_ENV=test RUST_LOG=debug GOOS=linux ls',
      'allow',
    ],
    ['control: NODE_ENV as a statement of its own', 'NODE_ENV=test; ls', 'allow'],
  ] satisfies Row[]);
});

describe('a denied file read through /proc is still denied', () => {
  check(cautious, [
    ['/proc/self/root is the root directory', 'cat /proc/self/root/home/u/.ssh/id_rsa', 'deny'],
    ['/proc/self/cwd is the directory the command runs in', 'cat /proc/self/cwd/.env', 'deny'],
    ['/proc/thread-self/root too', 'cat /proc/thread-self/root/ws/.env', 'deny'],
    ['a cd into /proc/self/root', 'cd /proc/self/root/home/u/.ssh && cat id_rsa', 'deny'],
    ['control: an ordinary /proc file', 'cat /proc/cpuinfo', 'allow'],
  ] satisfies Row[]);
});

describe('a denied file read through an option or an operand the tables missed is still denied', () => {
  check(cautious, [
    [
      'git diff of a path outside the repository reads it (implied --no-index)',
      'git diff /home/u/.ssh/id_rsa /dev/null',
      'deny',
    ],
    ['git diff --no-index', 'git diff --no-index .env /dev/null', 'deny'],
    ['diff --to-file', 'diff --to-file=.env notes.txt', 'deny'],
    ['diff --from-file', 'diff --from-file ~/.ssh/id_rsa notes.txt', 'deny'],
    ['date -f prints each line it cannot read as a date', 'date -f .env', 'deny'],
    ['date --file', 'date --file=/home/u/.ssh/id_rsa', 'deny'],
    ['jq --rawfile', "jq -n --rawfile a .env '$a'", 'deny'],
    ['jq --slurpfile', "jq -n --slurpfile a ~/.ssh/id_rsa '$a'", 'deny'],
    ['wc --files0-from prints the names it reads', 'wc --files0-from=.env', 'deny'],
    ['du --files0-from', 'du --files0-from=.env', 'deny'],
    ['control: git diff of a file in the workspace', 'git diff src/app.ts', 'allow'],
    ['control: date with a format', 'date +%F', 'allow'],
  ] satisfies Row[]);
});

describe('an operand that writes a file is not covered by a wildcard', () => {
  check(cautious, [
    ['uniq INPUT OUTPUT writes OUTPUT', 'uniq notes.txt /home/u/.bashrc', 'ask'],
    ['xxd INFILE OUTFILE writes OUTFILE', 'xxd -r dump.hex /ws/bin/tool', 'ask'],
    ['control: uniq of one file writes nothing', 'uniq -c notes.txt', 'allow'],
    ['control: xxd of one file writes nothing', 'xxd notes.txt', 'allow'],
  ] satisfies Row[]);
});
