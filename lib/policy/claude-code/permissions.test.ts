import { describe, expect, it } from 'vitest';
import { detectFormat, evaluate, importPolicy, PolicyValidationError, type Action } from '../index';
import { convertRule } from './permissions';
import { mapClaudeCodeCall } from './map-call';

describe("Claude Code's permission rules convert into Gatehouse rules", () => {
  it.each([
    ['a bare tool name governs the whole tool', 'Bash', 'allow', [{ tool: 'bash' }]],
    [
      'Bash(x:*) stays a prefix rule',
      'Bash(git push:*)',
      'deny',
      [{ tool: 'bash', params: { command: 'git push:*' } }],
    ],
    ['Bash(x) is exact', 'Bash(npm run test)', 'allow', [{ tool: 'bash', params: { command: 'npm run test' } }]],
    ['a trailing * is any rest', 'Bash(git *)', 'allow', [{ tool: 'bash', params: { command: 'git *' } }]],
    ['a middle * is any words', 'Bash(git * main)', 'ask', [{ tool: 'bash', params: { command: 'git ** main' } }]],
    [
      'a * glued to the last word runs on',
      'Bash(npm run test*)',
      'deny',
      [{ tool: 'bash', params: { command: 'npm run test* **' } }],
    ],
    ['Bash(*) is the whole tool', 'Bash(*)', 'deny', [{ tool: 'bash' }]],
    [
      'Read covers read_file and list_files',
      'Read(//abs/path)',
      'deny',
      [
        { tool: 'read_file', params: { path: '/abs/path' } },
        { tool: 'list_files', params: { path: '/abs/path' } },
      ],
    ],
    [
      '~/ stays the home',
      'Read(~/.ssh/**)',
      'deny',
      [
        { tool: 'read_file', params: { path: '~/.ssh/**' } },
        { tool: 'list_files', params: { path: '~/.ssh/**' } },
      ],
    ],
    [
      './x is relative to the project',
      'Read(./.env)',
      'allow',
      [
        { tool: 'read_file', params: { path: '.env' } },
        { tool: 'list_files', params: { path: '.env' } },
      ],
    ],
    [
      'a deny without a slash matches at any depth',
      'Read(.env)',
      'deny',
      [
        { tool: 'read_file', params: { path: '**/.env' } },
        { tool: 'list_files', params: { path: '**/.env' } },
      ],
    ],
    [
      '/x is relative to the project, not absolute',
      'Edit(/src/**/*.ts)',
      'allow',
      [
        { tool: 'write_file', params: { path: 'src/**/*.ts' } },
        { tool: 'edit_file', params: { path: 'src/**/*.ts' } },
      ],
    ],
    [
      'Edit covers write_file and edit_file',
      'Edit(src/**)',
      'allow',
      [
        { tool: 'write_file', params: { path: 'src/**' } },
        { tool: 'edit_file', params: { path: 'src/**' } },
      ],
    ],
    [
      'a denied directory means everything inside, at any depth',
      'Write(dist/)',
      'deny',
      [{ tool: 'write_file', params: { path: '**/dist/**' } }],
    ],
    [
      'WebFetch(domain:) denies the host and its subdomains',
      'WebFetch(domain:evil.io)',
      'deny',
      [{ tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: 'evil.io' }] }],
    ],
    [
      'WebFetch(domain:) allows that host only',
      'WebFetch(domain:example.com)',
      'allow',
      [
        { tool: 'fetch_url', params: { url: 'https://example.com/**' } },
        { tool: 'fetch_url', params: { url: 'http://example.com/**' } },
      ],
    ],
    [
      'a denied .. stays the parent, not any depth',
      'Edit(..)',
      'deny',
      [
        { tool: 'write_file', params: { path: '..' } },
        { tool: 'edit_file', params: { path: '..' } },
      ],
    ],
    ['WebSearch keeps its name', 'WebSearch', 'allow', [{ tool: 'WebSearch' }]],
    ['mcp__server is every tool of the server', 'mcp__github', 'allow', [{ tool: 'mcp__github__*' }]],
    ['mcp__server__* is every tool of the server', 'mcp__github__*', 'deny', [{ tool: 'mcp__github__*' }]],
    ['mcp__server__tool is that tool', 'mcp__github__create_issue', 'ask', [{ tool: 'mcp__github__create_issue' }]],
    ['Grep may be denied (as read_file)', 'Grep', 'deny', [{ tool: 'read_file' }]],
    ['any other tool keeps its name', 'Task', 'deny', [{ tool: 'Task' }]],
  ])('%s: %s', (_name, entry, action, expected) => {
    expect(convertRule(entry, action as Action)).toEqual(expected.map((r) => ({ action, ...r })));
  });

  it.each([
    ['Grep', 'allow', /Gatehouse sees Grep as read_file/],
    ['Glob(src/**)', 'allow', /write a Read/],
    ['Bash(git *push origin)', 'allow', /inside a word/],
    ['Bash(git push:* --force)', 'deny', /inside a word/],
    ['WebFetch(https://x.com)', 'allow', /other than domain/],
    ['WebFetch(domain:a b)', 'deny', /not a host/],
    ['mcp__a__b__c', 'allow', /mcp__server/],
    ['mcp__x(y)', 'allow', /no specifier/],
    ['Agent(Explore)', 'deny', /specifier/],
    ['Bash(', 'deny', /parenthesis/],
    ['Bash()', 'allow', /empty specifier/],
    ['rm -rf /', 'deny', /not a tool name/],
  ])('names %s (%s) as not convertible', (entry, action, reason) => {
    expect(() => convertRule(entry, action as Action)).toThrow(reason);
  });

  it('is recognised as a format; other keys are ignored; rules govern every agent by default', () => {
    const doc = { model: 'x', hooks: {}, permissions: { allow: ['Bash(git status)'], deny: ['Read(.env)'] } };
    expect(detectFormat(doc)).toBe('claude_code_settings');
    const policy = importPolicy(doc);
    expect(policy.defaultAction).toBe('ask');
    expect(policy.rules.every((r) => r.agent === undefined)).toBe(true);
    expect(policy.rules[0]).toMatchObject({
      action: 'deny',
      tool: 'read_file',
      description: 'Claude Code: Read(.env)',
    });
    expect(importPolicy(doc, { agent: 'claude-code' }).rules.every((r) => r.agent === 'claude-code')).toBe(true);
  });

  it('names every entry it cannot convert, and imports nothing', () => {
    const doc = { permissions: { allow: ['Bash(ls)', 'Grep'], deny: ['Bash(echo "x)', 7], defaultMode: 'plan' } };
    let error: unknown;
    try {
      importPolicy({ permissions: { ...doc.permissions, deny: ['Bash(echo "x)'] } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PolicyValidationError);
    expect((error as PolicyValidationError).issues.map((i) => i.path)).toEqual([
      'permissions.deny.0',
      'permissions.allow.1',
      'permissions.defaultMode',
    ]);
    expect(() => importPolicy(doc)).toThrow(/permissions\.deny\.1/);
  });
});

describe('an imported settings file decides as Claude Code would', () => {
  const cwd = '/home/ann/project';
  const settings = {
    permissions: {
      allow: ['Bash(npm run test:*)', 'Bash(git status)', 'Edit(src/**)', 'WebFetch(domain:example.com)', 'mcp__docs'],
      ask: ['Bash(git push:*)'],
      deny: ['Read(./.env)', 'Read(~/.ssh/**)', 'Bash(curl:*)', 'WebFetch(domain:evil.io)', 'mcp__docs__delete'],
      additionalDirectories: ['/home/ann/shared/'],
    },
  };
  const policy = importPolicy(settings);
  const ctx = { workspaceRoot: cwd, homeDir: '/home/ann', cwd };

  it.each([
    ['an allowed prefix runs', 'Bash', { command: 'npm run test -- --watch' }, 'allow'],
    ['a prefix is word-bounded', 'Bash', { command: 'npm run testx' }, 'ask'],
    ['an exact rule is exact', 'Bash', { command: 'git status --short' }, 'ask'],
    ['an ask rule asks', 'Bash', { command: 'git push origin main' }, 'ask'],
    ['a denied program is denied', 'Bash', { command: 'curl https://x.io' }, 'deny'],
    ['a compound command hiding a denied part is denied', 'Bash', { command: 'git status && curl x.io' }, 'deny'],
    ['an allowed prefix does not cover a chained command', 'Bash', { command: 'npm run test && rm -rf /' }, 'ask'],
    ['reads inside the project are allowed', 'Read', { file_path: 'README.md' }, 'allow'],
    ['reads in an additional directory are allowed', 'Read', { file_path: '/home/ann/shared/a.md' }, 'allow'],
    ['reads elsewhere ask', 'Read', { file_path: '/etc/hosts' }, 'ask'],
    ['a denied file is denied', 'Read', { file_path: '.env' }, 'deny'],
    ['Grep of a denied file is denied', 'Grep', { pattern: 'KEY', path: '.env' }, 'deny'],
    ['a home pattern is denied', 'Read', { file_path: '/home/ann/.ssh/id_rsa' }, 'deny'],
    ['a ../ escape is judged where it lands', 'Read', { file_path: '../.ssh/id_rsa' }, 'deny'],
    [
      'an edit inside the allowed tree runs',
      'Edit',
      { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' },
      'allow',
    ],
    ['a write inside the allowed tree runs', 'Write', { file_path: 'src/b.ts', content: '' }, 'allow'],
    ['an edit outside it asks', 'Edit', { file_path: 'package.json', old_string: 'a', new_string: 'b' }, 'ask'],
    ['an allowed domain is fetched', 'WebFetch', { url: 'https://example.com/docs' }, 'allow'],
    ['its subdomain is not allowed', 'WebFetch', { url: 'https://api.example.com/' }, 'ask'],
    ['a denied domain is denied', 'WebFetch', { url: 'https://evil.io/' }, 'deny'],
    ['an allowed MCP server runs', 'mcp__docs__search', { q: 'x' }, 'allow'],
    ['a denied MCP tool is denied', 'mcp__docs__delete', {}, 'deny'],
    ['anything else asks', 'Task', { prompt: 'x' }, 'ask'],
  ])('%s', (_name, tool_name, tool_input, expected) => {
    const mapped = mapClaudeCodeCall({ tool_name, tool_input, cwd });
    if (!mapped.ok) throw new Error(mapped.reason);
    const decision = evaluate(policy, { ...mapped.call, agent: 'claude-code' }, { ...ctx, risk: mapped.risk });
    expect(decision.action).toBe(expected);
  });
});
