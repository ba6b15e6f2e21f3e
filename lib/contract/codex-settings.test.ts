// The Codex CLI blocks as the Connect page shows them: the generator's hooks.json block, the
// config.toml lines that keep the token from the model's commands, the token in the variable the
// hook script reads with --codex, and the README's example script path accepted as it is.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CODEX_CONFIG_TOML,
  CODEX_HOOK_SCRIPT_EXAMPLE,
  CODEX_TOKEN_ENV,
  codexHookSettings,
  codexSettingsJson,
} from './codex-settings';

const input = { baseUrl: 'https://gatehouse.example.com/', hookScript: CODEX_HOOK_SCRIPT_EXAMPLE, deadlineS: 45 };

describe('codexSettingsJson', () => {
  it('is the generated block, pretty-printed to paste', () => {
    const text = codexSettingsJson(input);
    expect(JSON.parse(text)).toEqual(codexHookSettings(input));
    expect(text.split('\n').length).toBeGreaterThan(10);
  });

  it("runs the example script in Codex mode with this server's hook URL", () => {
    const [hook] = codexHookSettings(input).hooks.PreToolUse[0]!.hooks;
    expect(hook!.command).toMatch(
      /^node '\/opt\/gatehouse\/gatehouse-hook\.mjs' 'https:\/\/gatehouse\.example\.com\/api\/hooks\/codex\?deadline=45' --codex \|\| /,
    );
  });

  it('names the field of a script path that is not absolute', () => {
    expect(() => codexSettingsJson({ ...input, hookScript: '~/gatehouse-hook.mjs' })).toThrow(/hookScript/);
  });
});

describe('CODEX_CONFIG_TOML', () => {
  it("excludes the token's variable from the environment of the model's commands", () => {
    expect(CODEX_CONFIG_TOML).toBe(`[shell_environment_policy]\nexclude = ["${CODEX_TOKEN_ENV}"]\n`);
  });

  it("is what the README's Codex section shows", () => {
    const readme = readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Codex CLI'));
    const start = section.indexOf('```toml\n') + '```toml\n'.length;
    expect(section.slice(start, section.indexOf('```', start))).toBe(CODEX_CONFIG_TOML);
  });
});

describe('CODEX_TOKEN_ENV', () => {
  // Runs the script as the hooks.json command does; a closed port makes it stop right after reading the token.
  const run = (env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      [
        path.join(import.meta.dirname, '../../scripts/gatehouse-hook.mjs'),
        'http://127.0.0.1:9/api/hooks/codex',
        '--codex',
      ],
      {
        input: '{}',
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );

  it('is the variable scripts/gatehouse-hook.mjs --codex reads the token from', () => {
    const without = run({});
    expect(without.status).toBe(2);
    expect(without.stderr).toContain(`${CODEX_TOKEN_ENV} is not set`);
    const withToken = run({ [CODEX_TOKEN_ENV]: 'gh_test' });
    expect(withToken.status).toBe(2);
    expect(withToken.stderr).toContain('unreachable');
  });
});
