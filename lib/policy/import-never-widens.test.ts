// An imported policy never allows a call its source did not allow: what the importer cannot read
// exactly is named (PolicyValidationError), never dropped into a wider allow rule.
import { describe, expect, it } from 'vitest';
import { compilePolicy } from './compile';
import { PolicyValidationError } from './errors';
import { evaluate } from './evaluate';
import { importPolicy } from './import';
import type { ToolCall } from './types';

const ctx = { workspaceRoot: '/ws', homeDir: '/home/u' };
const decide = (doc: unknown, call: ToolCall) => evaluate(compilePolicy(importPolicy(doc)), call, ctx).action;
const bash = (command: string): ToolCall => ({ tool: 'bash', params: { command } });

describe('the seeds’ { allowlist, deny, allowOnce }', () => {
  it.each([
    ['param', { param: { command: 'git status' } }],
    ['when', { when: [{ key: 'command', op: 'glob', value: 'git *' }] }],
    ['action', { action: 'deny' }],
  ])(
    'an entry key the importer does not read (%s) is named, not dropped into an allow of the whole tool',
    (key, extra) => {
      const doc = { allowlist: [{ tool: 'bash', ...extra }] };
      expect(() => importPolicy(doc)).toThrow(PolicyValidationError);
      expect(() => importPolicy(doc)).toThrow(new RegExp(`allowlist\\.0`));
    },
  );
});

describe("Claude Code's settings.json", () => {
  it('`?` and `[...]` in a Bash allow rule are literal, as in Claude Code (only `*` is a wildcard)', () => {
    const doc = { permissions: { allow: ['Bash(curl https://api.example.com/v1?page=1)', 'Bash(ls [ab])'] } };
    expect(decide(doc, bash('curl https://api.example.com/v1?page=1'))).toBe('allow');
    expect(decide(doc, bash('curl https://api.example.com/v1Xpage=1'))).toBe('ask');
    expect(decide(doc, bash("ls '[ab]'"))).toBe('allow');
    expect(decide(doc, bash('ls a'))).toBe('ask');
  });

  it('additionalDirectories are plain paths: a glob character in one is literal', () => {
    const doc = { permissions: { additionalDirectories: ['/srv/app/[id]', '/data/*'] } };
    expect(decide(doc, { tool: 'read_file', params: { path: '/srv/app/[id]/page.tsx' } })).toBe('allow');
    expect(decide(doc, { tool: 'read_file', params: { path: '/srv/app/i/secret' } })).toBe('ask');
    expect(decide(doc, { tool: 'read_file', params: { path: '/data/other/secret' } })).toBe('ask');
  });

  it('a Gatehouse tool name that is no Claude Code tool (`bash`) is not an allow of that Gatehouse tool', () => {
    // Claude Code's tool is `Bash`; its matcher would never apply `bash` to anything.
    for (const name of ['bash', 'read_file', 'write_file', 'fetch_url']) {
      expect(() => importPolicy({ permissions: { allow: [name] } })).toThrow(/permissions\.allow\.0/);
    }
    // As a deny it may only be wider than Claude Code's: kept.
    expect(decide({ permissions: { deny: ['bash'] } }, bash('ls'))).toBe('deny');
  });
});

describe('the agent option', () => {
  it('is refused for a format it does not apply to, instead of rules for every agent', () => {
    const seed = { allowlist: [{ tool: 'bash' }] };
    expect(() => importPolicy(seed, { agent: 'claude-code' })).toThrow(PolicyValidationError);
    const canonical = { rules: [{ action: 'allow', tool: 'bash' }] };
    expect(() => importPolicy(canonical, { agent: 'claude-code' })).toThrow(PolicyValidationError);
  });
});
