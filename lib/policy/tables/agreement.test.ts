// Item 5: the new tables agree with the eval-context analysis (docs/decisions/0003): what the
// engine cannot see statically is never allowed, deny rules still apply to it, and a word only
// known at run time never spells out a dangerous option, a file or a host.
import { describe } from 'vitest';
import { bashRule, check, policyOf, type Row } from './rows';

const policy = policyOf({
  defaultAction: 'ask',
  rules: [
    { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
    { action: 'deny', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: 'evil.io' }] },
    bashRule('deny', 'rm -rf *'),
    ...['sed *', 'git *', 'env *', 'cat *', 'echo *', 'curl *', 'find *', 'xargs *', 'printf *', 'true'].map((c) =>
      bashRule('allow', c),
    ),
  ],
});

const rows: Row[] = [
  [
    'a variable holding an option is a run-time word: sed -i may ride on it',
    'x=-i; sed $x s/a/b/ f',
    'ask',
    'run time',
  ],
  ['a substitution in the git option area', 'git -c "$(cat cfg)" status', 'ask', 'git -c'],
  ['a sed script from a substitution', 'sed "$(cat s.sed)" f', 'ask', 'run time'],
  ['a sed script through prompt expansion is opaque', 'x=\'$(id)\'; sed "${x@P}" f', 'ask'],
  ['env -S hides a command: opaque, and the deny rule cannot see inside', "env -S'rm -rf /'", 'ask', 'env -S'],
  ['env -S in a cluster', 'env -vS "cat .env"', 'ask', 'env -S'],
  ['eval of literal text is parsed: the file rule applies', 'eval "cat .env"', 'deny'],
  ['bash -c of literal text is parsed: the file rule applies', "bash -c 'cat .env'", 'deny'],
  ['a trap action is parsed: the file rule applies', "trap 'cat .env' EXIT", 'deny'],
  ['an indirect expansion is opaque and its file unknown: the deny rule still applies', 'n=F; cat "${!n}"', 'deny'],
  ['a URL from a substitution is unknown: the host rule may match', 'curl $(printf https://evil.io)', 'deny'],
  [
    'a find -exec command reads files nobody can name: the file rule may match',
    'find . -exec sed -i s/a/b/ {} +',
    'deny',
  ],
  ['xargs adds files nobody can name: the file rule may match', 'printf x | xargs sed s/a/b/', 'deny'],
  [
    'a dangerous option in a find -exec command, with no file rule in the way',
    'find . -exec git -c x=y status \\;',
    'ask',
    'git -c',
  ],
  ['xargs may add a dangerous option', 'printf x | xargs git log', 'ask', 'xargs git'],
  ['flags as sets see through a variable that may hold them', 'F=-fr; rm $F /', 'deny'],
  ['a sed script with an expansion asks, even one that would be harmless', 'n=1; sed -n "${n}p" f', 'ask', 'run time'],
  ['control: a literal harmless sed script', "sed -n '1p' f", 'allow'],
  ['control: a run-time word after a literal prefix cannot be an option', 'curl "https://example.com/$P"', 'allow'],
  ['control: a run-time word after -- cannot be an option', 'git log -- "$F"', 'allow'],
  ['control: echo of a run-time word', 'echo "$X"', 'allow'],
];

describe('item 5: the tables agree with the eval-context analysis', () => check(policy, rows));
