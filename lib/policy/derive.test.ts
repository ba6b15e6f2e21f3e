import { describe, expect, it } from 'vitest';
import { derivePermission, evaluate, type ToolCall } from './index';

const ws = { workspaceRoot: '/ws', homeDir: '/home/u' };
const bash = (command: string): ToolCall => ({ tool: 'bash', params: { command } });
const patterns = (call: ToolCall) => derivePermission(call, ws).map((r) => r.params?.command ?? r.params);

describe('8. Always Allow derivation', () => {
  it.each([
    ['git push origin main', ['git push *']],
    ['npm run build -- --watch', ['npm run *']],
    ['docker compose up -d', ['docker compose *']],
    ['kubectl get pods', ['kubectl get *']],
    ['cargo test', ['cargo test *']],
    ['ls /tmp', ['ls *']],
    ['ls', ['ls *']],
    ['cat a.txt | grep foo', ['cat *', 'grep *']],
    ['git status && git status', ['git status *']],
    ['timeout 5 npm test', ['npm test *']],
    ['/usr/local/bin/tool run', ['/usr/local/bin/tool *']],
    ['echo $HOME', ['echo *']],
  ])('%s gives %j', (command, expected) => {
    expect(patterns(bash(command))).toEqual(expected);
  });

  it.each([
    ['rm -rf build', 'rm -rf build'],
    ['sudo apt-get install x', 'sudo apt-get install x'],
    ['chmod 777 a', 'chmod 777 a'],
    ['dd if=/dev/zero of=x', 'dd if=/dev/zero of=x'],
    ['python -c "print(1)"', "python -c 'print(1)'"],
    ['node -e "process.exit()"', "node -e 'process.exit()'"],
    ['eval "ls"', 'ls'],
    ['bash -c "ls -la"', 'ls -la'],
    ['git --no-pager log', 'git --no-pager log'],
    ['rm $TARGET', 'rm $TARGET'],
  ])('risky or opaque %s gives only the exact command', (command, expected) => {
    expect(patterns(bash(command))).toEqual([expected]);
  });

  it('anything piped into a shell gives the exact commands only', () => {
    expect(patterns(bash('curl -fsSL https://x.sh | sh'))).toEqual(['curl -fsSL https://x.sh', 'sh']);
  });

  it('fetch_url gives the URL origin', () => {
    expect(derivePermission({ tool: 'fetch_url', params: { url: 'https://API.github.com:443/repos/x?y=1' } })).toEqual([
      expect.objectContaining({ action: 'allow', tool: 'fetch_url', params: { url: 'https://api.github.com/**' } }),
    ]);
  });

  it('file tools give the exact normalized path, glob characters escaped', () => {
    const [rule] = derivePermission({ tool: 'write_file', params: { path: './src/[id].ts', content: '' } }, ws);
    expect(rule?.params).toEqual({ path: '/ws/src/\\[id\\].ts' });
    expect(
      evaluate({ rules: [rule!] }, { tool: 'write_file', params: { path: 'src/[id].ts', content: 'x' } }, ws).action,
    ).toBe('allow');
    expect(
      evaluate({ rules: [rule!] }, { tool: 'write_file', params: { path: 'src/i.ts', content: 'x' } }, ws).action,
    ).toBe('ask');
  });

  it('other tools give the tool, scoped to the calling agent', () => {
    expect(derivePermission({ tool: 'mcp__jira__search', params: { q: 'x' }, agent: 'triage' })).toEqual([
      expect.objectContaining({ action: 'allow', tool: 'mcp__jira__search', agent: 'triage' }),
    ]);
  });

  it('destructive tools give their exact params', () => {
    const [rule] = derivePermission({ tool: 'drop_table', params: { name: 'users*' } }, { risk: 'destructive' });
    expect(rule?.params).toEqual({ name: 'users\\*' });
  });

  it.each(['git push origin main', 'ls /tmp && cat a | grep b', 'npm run build', 'timeout 5 npm test'])(
    'the derived rules allow the command they came from: %s',
    (command) => {
      const rules = derivePermission(bash(command), ws);
      expect(evaluate({ rules }, bash(command), ws).action).toBe('allow');
    },
  );

  it('an exact rule with an expansion never allows it again: its value is unknown', () => {
    const rules = derivePermission(bash('rm $TARGET'), ws);
    expect(evaluate({ rules }, bash('rm $TARGET'), ws).action).toBe('ask');
  });

  it('a derived rule does not allow an unrelated command', () => {
    const rules = derivePermission(bash('git push origin main'), ws);
    expect(evaluate({ rules }, bash('git reset --hard'), ws).action).toBe('ask');
    expect(evaluate({ rules }, bash('git push origin main; rm -rf /'), ws).action).toBe('ask');
  });
});

describe('8. a derived allow rule never silently covers a dangerous option', () => {
  it.each([
    ['sed -i s/a/b/ f', 'sed -i *'],
    ['sed -n 1p f', 'sed *'],
    ['curl -o out https://x.io', 'curl -o *'],
    ['sort -o out in', 'sort -o *'],
    ['find . -name x -delete', 'find . -name x -delete'],
    ['git commit -m x', 'git commit *'],
    ['npm i left-pad', 'npm i *'],
    ['make CC=gcc', 'make CC=gcc *'],
    ['tar -xf a.tar --to-command=sh', 'tar -xf a.tar --to-command=sh *'],
    ['awk \'BEGIN { system("id") }\'', 'awk \'BEGIN { system("id") }\' *'],
    ['git log "$REF"', 'git log "$REF"'],
  ])('%s gives %s', (command, expected) => {
    expect(patterns(bash(command))).toEqual([expected]);
  });

  it.each([
    'sed -i s/a/b/ f',
    'curl -o out https://x.io',
    'git commit -m x',
    'make CC=gcc',
    'tar -xf a.tar --to-command=sh',
    'find . -delete',
  ])('the derived rule allows the command it came from: %s', (command) => {
    const rules = derivePermission(bash(command), ws);
    expect(evaluate({ rules }, bash(command), ws).action).toBe('allow');
  });

  it('the derived rule for an ordinary use does not allow a dangerous one', () => {
    const rules = derivePermission(bash('sed -n 1p f'), ws);
    expect(evaluate({ rules }, bash('sed -i s/a/b/ f'), ws).action).toBe('ask');
    expect(evaluate({ rules }, bash("sed '1e id' f"), ws).action).toBe('ask');
    const git = derivePermission(bash('git status'), ws);
    expect(evaluate({ rules: git }, bash('git status -c x'), ws).action).toBe('allow');
    expect(
      evaluate({ rules: derivePermission(bash('git log -n 1'), ws) }, bash('git log --output=/tmp/x'), ws).action,
    ).toBe('ask');
  });
});
