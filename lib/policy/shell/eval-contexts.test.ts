// Every place where bash evaluates text a second time, as code or as arithmetic: each row runs in a
// real bash in a temp dir (the payload `touch pwned` proves the context is real) and the engine
// must not allow it, whether `echo *`, `printf *`, `test *`, `read *` and the rest are allow rules
// or grants, or a rule allows every command but `touch`. Controls show ordinary commands stay
// allowed. The README's list is this table.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePolicy, derivePermission, evaluate, parseCommand, type Rule } from '../index';

const PROGRAMS = [
  'echo',
  'printf',
  'test',
  '[',
  'read',
  'let',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'mapfile',
  'readarray',
  'getopts',
  'wait',
  'trap',
  'alias',
  'shopt',
  'compgen',
  'hash',
  'sleep',
  'set',
  'source',
  '.',
  'ls',
  'f',
  ':',
  'true',
  'bash',
  'eval',
  'seq',
  'cat',
  'false',
];
const ALLOW: Rule[] = PROGRAMS.map((p) => ({
  action: 'allow',
  tool: 'bash',
  params: { command: `${p === '[' ? "'['" : p} *` },
}));
const byRules = compilePolicy({ defaultAction: 'ask', rules: ALLOW });
const noRules = compilePolicy({ defaultAction: 'ask', rules: [] });
/** Everything but the payload's program: a command with no simple command at all (`(( x ))`) is allowed too. */
const allButTouch = compilePolicy({
  defaultAction: 'ask',
  rules: [
    { action: 'allow', tool: 'bash', params: { command: '*' } },
    { action: 'deny', tool: 'bash', params: { command: 'touch *' } },
  ],
});

const bashVersion = spawnSync('bash', ['-c', 'echo ${BASH_VERSINFO[0]}${BASH_VERSINFO[1]}'], {
  encoding: 'utf8',
}).stdout?.trim();
const realBash = Number(bashVersion) >= 52;

/** Runs `cmd` in a fresh temp dir (with `files` created first); true if it created `pwned`. */
function runsPayload(cmd: string, files: string[] = []): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-eval-'));
  try {
    for (const file of files) writeFileSync(join(dir, file), '');
    spawnSync('bash', ['-c', cmd], {
      cwd: dir,
      timeout: 10_000,
      stdio: 'ignore',
      env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    return existsSync(join(dir, 'pwned'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Row {
  cmd: string;
  /** Whether bash 5.2 runs the payload (false: the engine is stricter than this bash needs). */
  runs: boolean;
  files?: string[];
}

const P = 'touch pwned';
const A = `'a[$(${P})]'`; // a name whose subscript runs the payload

const CONTEXTS: Record<string, Row[]> = {
  'prompt expansion ${x@P}': [
    { cmd: `x='$(${P})'; echo \${x@P}`, runs: true },
    { cmd: `x='\`${P}\`'; echo \${x@P}`, runs: true },
    { cmd: `x='$(${P})'; printf '%s' "\${x@P}"`, runs: true },
    { cmd: `set -- '$(${P})'; echo \${1@P}`, runs: true },
    { cmd: `x='$(${P})'; a=("$x"); echo \${a[@]@P}`, runs: true },
    { cmd: `x='$(${P})'; y=x; echo \${!y@P}`, runs: true },
  ],
  'indirect expansion ${!x}': [
    { cmd: `x=${A}; echo \${!x}`, runs: true },
    { cmd: `x=${A}; echo \${!x:-q}`, runs: true },
    { cmd: `set -- ${A}; echo \${!1}`, runs: true },
  ],
  'arithmetic $((x)), $[x], ((x)), for ((...)) on a variable': [
    { cmd: `x=${A}; echo $((x))`, runs: true },
    { cmd: `x=${A}; echo $[x]`, runs: true },
    { cmd: `x=${A}; (( x ))`, runs: true },
    { cmd: `x=${A}; echo $(( x ? 1 : 0 ))`, runs: true },
    { cmd: `x=${A}; for ((i=x; 0; )); do :; done`, runs: true },
    { cmd: `x=y; y=${A}; echo $((x))`, runs: true },
    { cmd: `x=${A}; y=$x; echo $((y))`, runs: true },
    { cmd: `x=${A}; echo $(( $x ))`, runs: true },
    { cmd: `x=${A}; echo $(( "$x" ))`, runs: true },
    { cmd: `echo $(( ${A} ))`, runs: true },
    { cmd: `echo $(( $(echo ${A}) ))`, runs: true },
    { cmd: `x='$(${P})'; echo $((x))`, runs: false },
  ],
  let: [
    { cmd: `let ${A}`, runs: true },
    { cmd: `let x=${A}`, runs: true },
    { cmd: `x=${A}; let x`, runs: true },
  ],
  '[[ ]] arithmetic operators (-eq -ne -lt -le -gt -ge)': [
    { cmd: `[[ ${A} -eq 1 ]]`, runs: true },
    { cmd: `x=${A}; [[ $x -eq 1 ]]`, runs: true },
    { cmd: `x=${A}; [[ 1 -lt x ]]`, runs: true },
  ],
  'array subscripts ${a[i]} and slices ${x:offset:length}': [
    { cmd: `x=${A}; a=(1 2); echo \${a[x]}`, runs: true },
    { cmd: `x=${A}; a=(1 2); echo \${a[$x]}`, runs: true },
    { cmd: `x=${A}; echo \${#x[x]}`, runs: true },
    { cmd: `x=${A}; y=abc; echo \${y:x}`, runs: true },
    { cmd: `x=${A}; y=abc; echo \${y:0:x}`, runs: true },
    { cmd: `x=${A}; echo \${@:x}`, runs: true },
  ],
  'subscripts in assignments a[i]=v, a=([i]=v)': [
    { cmd: `x=${A}; a[x]=1`, runs: true },
    { cmd: `x=${A}; a[$x]=1`, runs: true },
    { cmd: `x=${A}; a=([x]=1)`, runs: true },
    { cmd: `x=${A}; declare -a b=([x]=1)`, runs: true },
    { cmd: `declare -A m; x='b[$(${P})]'; for i in 1 2; do echo \${m[$x]}; unset m; m=(); done`, runs: true },
    { cmd: `declare -A a; x='b[$(${P})]'; f() { local a; echo \${a[$x]}; }; f`, runs: true },
  ],
  'names given to builtins: printf -v, read, test -v / [ -v ] / [[ -v ]], unset, wait -p, declare/typeset/local': [
    { cmd: `printf -v ${A} %s 1`, runs: true },
    { cmd: `declare -A A; printf -v 'A[$(${P})]' %s 1`, runs: true },
    { cmd: `x=${A}; printf -v "$x" %s 1`, runs: true },
    { cmd: `read ${A} <<< x`, runs: true },
    { cmd: `test -v ${A}`, runs: true },
    { cmd: `[ -v ${A} ]`, runs: true },
    { cmd: `[[ -v ${A} ]]`, runs: true },
    { cmd: `declare -A A; test -v 'A[$(${P})]'`, runs: true },
    { cmd: `i='b[$(${P})]'; test -v "a[$i]"`, runs: true },
    { cmd: `op=-v; test $op ${A}`, runs: true },
    { cmd: `a=(1); unset ${A}`, runs: true },
    { cmd: `declare 'a[$(${P})]=1'`, runs: true },
    { cmd: `typeset 'a[$(${P})]=1'`, runs: true },
    { cmd: `f() { local 'a[$(${P})]=1'; }; f`, runs: true },
    { cmd: `sleep 0 & wait -n -p ${A}`, runs: true },
    { cmd: `x='b[$(${P})]'; echo hi {a[x]}>/dev/null`, runs: true },
    { cmd: `read -a ${A} <<< x`, runs: false },
    { cmd: `mapfile ${A} <<< x`, runs: false },
    { cmd: `readarray ${A} <<< x`, runs: false },
    { cmd: `getopts a ${A} -a`, runs: false },
    { cmd: `export 'a[$(${P})]=1'`, runs: false },
    { cmd: `readonly 'a[$(${P})]=1'`, runs: false },
  ],
  'variables with the integer attribute (declare -i, RANDOM, SRANDOM, HISTCMD, OPTIND)': [
    { cmd: `declare -i x=${A}`, runs: true },
    { cmd: `declare -i x; x=${A}`, runs: true },
    { cmd: `declare -i y; read y <<< ${A}`, runs: true },
    { cmd: `declare -ai y=(1 ${A})`, runs: true },
    { cmd: `f() { local -i n; n=$1; }; f ${A}`, runs: true },
    { cmd: `OPTIND=${A}`, runs: true },
    { cmd: `RANDOM=${A}`, runs: true },
    { cmd: `for OPTIND in ${A}; do :; done`, runs: true },
    { cmd: `for i in 1 2; do echo $((SECONDS)); unset SECONDS; SECONDS=${A}; done`, runs: true },
  ],
  'namerefs (declare -n, local -n)': [
    { cmd: `declare -n r=${A}; echo $r`, runs: true },
    { cmd: `declare -n r; r=${A}; echo $r`, runs: true },
    { cmd: `f() { local -n r=$1; echo $r; }; f ${A}`, runs: true },
  ],
  'code strings: trap, mapfile -C, alias, compgen -C/-W, source of a stream, hash -p, PS4': [
    { cmd: `trap '${P}' EXIT`, runs: true },
    { cmd: `set -o functrace; trap '${P}' DEBUG; :`, runs: true },
    { cmd: `mapfile -C '${P}' -c 1 arr <<< x`, runs: true },
    { cmd: `shopt -s expand_aliases; alias x='${P}'; eval x`, runs: true },
    { cmd: `compgen -C '${P}' x`, runs: true },
    { cmd: `compgen -W '$(${P})' x`, runs: true },
    { cmd: `source /dev/stdin <<< '${P}'`, runs: true },
    { cmd: `. <(echo '${P}')`, runs: true },
    { cmd: `hash -p /usr/bin/touch ls; ls pwned`, runs: true },
    { cmd: `PS4='$(${P})'; set -x; :`, runs: true },
  ],
  'values from outside the script: the environment, file names, command output': [
    { cmd: `X=${A} bash -c 'echo $((X))'`, runs: true },
    { cmd: `export X=${A}; bash -c 'echo $((X))'`, runs: true },
    { cmd: `X=${A} bash -c 'if false; then X=1; fi; echo $((X))'`, runs: true },
    { cmd: 'for f in *; do echo $((f)); done', runs: true, files: ['a[$(touch${IFS}pwned)]'] },
    { cmd: 'for f in *; do [ $f ]; done', runs: true, files: ['-v a[$(touch${IFS}pwned)]'] },
    { cmd: `x=$(echo ${A}); echo $((x))`, runs: true },
    { cmd: `declare -A m=([${A}]=1); for k in "\${!m[@]}"; do echo $((k)); done`, runs: true },
  ],
};

describe.each(Object.entries(CONTEXTS))('%s', (_context, rows) => {
  it.each(rows)('$cmd', ({ cmd, runs, files }) => {
    if (realBash) expect(runsPayload(cmd, files), 'what bash does').toBe(runs);
    const byRule = evaluate(byRules, { tool: 'bash', params: { command: cmd } });
    expect(byRule.action, byRule.explanation).toBe('ask');
    const byGrant = evaluate(noRules, { tool: 'bash', params: { command: cmd } }, { grants: ALLOW });
    expect(byGrant.action, byGrant.explanation).toBe('ask');
    const byWildcard = evaluate(allButTouch, { tool: 'bash', params: { command: cmd } });
    expect(byWildcard.action, byWildcard.explanation).not.toBe('allow');
  });
});

describe('the reported attack: Always Allow on `echo hello`', () => {
  it('the suggested rule `echo *` does not allow `${x@P}` of a variable holding $(...)', () => {
    const grants = derivePermission({ tool: 'bash', params: { command: 'echo hello' } });
    expect(grants.map((g) => g.params?.command)).toEqual(['echo *']);
    const attack = `x='$(id > f)'; echo \${x@P}`;
    expect(evaluate(noRules, { tool: 'bash', params: { command: 'echo hello' } }, { grants }).action).toBe('allow');
    const decision = evaluate(noRules, { tool: 'bash', params: { command: attack } }, { grants });
    expect(decision.action).toBe('ask');
    expect(decision.reason).toBe('unparseable');
    expect(decision.explanation).toContain('prompt string');
  });
});

describe('copies between variables (x=$y) are followed, however they branch or cycle', () => {
  const evaluateCommand = (command: string) => evaluate(byRules, { tool: 'bash', params: { command } });

  it('a variable takes the worst value of any variable it copied, through a cycle', () => {
    const cycle = `a=${A}; x=1; y=$x; z=$y; x=$z; if false; then x=$a; fi; echo $((z))`;
    expect(evaluateCommand(cycle).action).toBe('ask');
    expect(evaluateCommand(cycle.replace('x=$a', 'x=2')).action).toBe('allow');
  });

  it('150 levels of two variables copying both of the level before resolve at once', () => {
    let command = 'x0=1; y0=2; ';
    for (let k = 1; k <= 150; k++) command += `x${k}="$x${k - 1}$y${k - 1}"; y${k}="$y${k - 1}$x${k - 1}"; `;
    const start = performance.now();
    expect(evaluateCommand(`${command}echo $((x150 + y150))`).action).toBe('allow');
    expect(evaluateCommand(`${command.replace('y0=2', `y0=${A}`)}echo $((x150))`).action).toBe('ask');
    expect(performance.now() - start).toBeLessThan(1_000);
  });
});

describe('controls: ordinary commands and texts bash does not evaluate again', () => {
  const controls = [
    'echo $HOME',
    'for i in 1 2 3; do echo $((i * 2)); done',
    'echo $((1 + 2)) $[3 * 4]',
    'i=0; while [ $i -lt 3 ]; do i=$((i + 1)); done; echo $i',
    'for ((i = 0; i < 3; i++)); do echo $i; done',
    'n=5; (( n > 2 )) && echo $((n * 2))',
    'ls; [ $? -eq 0 ] && echo ok',
    '[ -n "$x" ] || echo empty',
    'arr=(a b c); echo ${arr[1]} ${#arr[@]} ${arr[@]:1}',
    "declare -A m; m[key]=1; m[old]=2; unset 'm[old]'; declare -p m; echo ${m[key]}",
    'ref=HOME; echo ${!ref}',
    'for v in HOME PATH; do echo ${!v}; done',
    'x=hello; echo ${x@P}',
    'echo $(( RANDOM % 10 )) $(( $# + 1 ))',
    's=abcdef; echo ${s:1:3} ${s: -2}',
    'printf -v out %s hi; echo $out',
    'read -r line <<< hi; echo "$line"',
    'let i=1+2; declare -i n=5; n=n+1; echo $n',
    "trap 'echo bye' EXIT",
    "test 'a[$(touch pwned)]' -eq 1",
    "[ 'a[$(touch pwned)]' -eq 1 ]",
    "echo '$(touch pwned)' '${x@P}' '$((x))'",
    'test -v HOME && [[ -v PATH ]]',
    'count=0; for f in *; do count=$((count + 1)); done; echo $count',
    'a=(x y); for i in "${!a[@]}"; do echo "$i ${a[$i]}" $((i + 1)); done',
  ];
  it.each(controls)('%s', (cmd) => {
    if (realBash) expect(runsPayload(cmd), 'what bash does').toBe(false);
    expect(parseCommand(cmd).parts.filter((p) => p.opaque)).toEqual([]);
    const decision = evaluate(byRules, { tool: 'bash', params: { command: cmd } });
    expect(decision.action, decision.explanation).toBe('allow');
    expect(evaluate(allButTouch, { tool: 'bash', params: { command: cmd } }).action).toBe('allow');
  });
});
