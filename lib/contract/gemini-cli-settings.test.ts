// The Gemini CLI block as the Connect page shows it: the generator's block, with the token in the
// variable the hook script reads, and the README's example script path accepted as it is.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GEMINI_CLI_HOOK_SCRIPT_EXAMPLE,
  GEMINI_CLI_TOKEN_ENV,
  geminiCliHookSettings,
  geminiCliSettingsJson,
} from './gemini-cli-settings';

const input = { baseUrl: 'https://gatehouse.example.com/', hookScript: GEMINI_CLI_HOOK_SCRIPT_EXAMPLE, deadlineS: 45 };

describe('geminiCliSettingsJson', () => {
  it('is the generated block, pretty-printed to paste', () => {
    const text = geminiCliSettingsJson(input);
    expect(JSON.parse(text)).toEqual(geminiCliHookSettings(input));
    expect(text.split('\n').length).toBeGreaterThan(10);
  });

  it("runs the example script with this server's hook URL", () => {
    const [hook] = geminiCliHookSettings(input).hooks.BeforeTool[0]!.hooks;
    expect(hook!.command).toBe(
      `node '${GEMINI_CLI_HOOK_SCRIPT_EXAMPLE}' 'https://gatehouse.example.com/api/hooks/gemini-cli?deadline=45' || exit 2`,
    );
  });

  it('names the field of a script path that is not absolute', () => {
    expect(() => geminiCliSettingsJson({ ...input, hookScript: '~/gatehouse-hook.mjs' })).toThrow(/hookScript/);
  });
});

describe('GEMINI_CLI_TOKEN_ENV', () => {
  // Runs the script as Gemini CLI does; a closed port makes it stop right after reading the token.
  const run = (env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      [path.join(import.meta.dirname, '../../scripts/gatehouse-hook.mjs'), 'http://127.0.0.1:9/api/hooks/gemini-cli'],
      {
        input: '{}',
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );

  it('is the variable scripts/gatehouse-hook.mjs reads the token from', () => {
    const without = run({});
    expect(without.status).toBe(2);
    expect(without.stderr).toContain(`${GEMINI_CLI_TOKEN_ENV} is not set`);
    const withToken = run({ [GEMINI_CLI_TOKEN_ENV]: 'gh_test' });
    expect(withToken.status).toBe(2);
    expect(withToken.stderr).toContain('unreachable');
  });
});
