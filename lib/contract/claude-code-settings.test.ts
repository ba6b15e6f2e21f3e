import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import {
  claudeCodeHookSettings,
  claudeCodeSettingsJson,
  hookTimeoutFor,
  tokenExportLine,
} from './claude-code-settings';

describe('the Claude Code settings block', () => {
  it('is an http PreToolUse hook on every tool, token from the environment, fail closed', () => {
    expect(claudeCodeHookSettings({ baseUrl: 'https://gate.example.com/', deadlineS: 300 })).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: '*',
            hooks: [
              {
                type: 'http',
                url: 'https://gate.example.com/api/hooks/claude-code?deadline=300',
                headers: { Authorization: 'Bearer $GATEHOUSE_TOKEN' },
                allowedEnvVars: ['GATEHOUSE_TOKEN'],
                timeout: 330,
                onFailure: 'block',
              },
            ],
          },
        ],
      },
    });
  });

  it.each([
    [1, 16],
    [60, 75],
    [150, 165],
    [300, 330],
    [3600, 3960],
  ])('the hook outlives a deadline of %i s (timeout %i s): Gatehouse answers first', (deadline, timeout) => {
    expect(hookTimeoutFor(deadline)).toBe(timeout);
    expect(timeout - deadline).toBeGreaterThanOrEqual(15);
  });

  it('keeps a path prefix of the server and names another variable when asked', () => {
    const settings = claudeCodeHookSettings({
      baseUrl: 'http://10.0.0.5:3000/gate',
      tokenEnvVar: 'GH_TOKEN',
      deadlineS: 60,
    });
    const hook = settings.hooks.PreToolUse[0]!.hooks[0]!;
    expect(hook.url).toBe('http://10.0.0.5:3000/gate/api/hooks/claude-code?deadline=60');
    expect(hook.headers).toEqual({ Authorization: 'Bearer $GH_TOKEN' });
    expect(hook.allowedEnvVars).toEqual(['GH_TOKEN']);
  });

  it.each([
    ['a non-http URL', { baseUrl: 'file:///etc', deadlineS: 60 }, 'baseUrl'],
    ['a URL with a query', { baseUrl: 'https://x.io/?a=1', deadlineS: 60 }, 'baseUrl'],
    ['a variable name that is not one', { baseUrl: 'https://x.io', tokenEnvVar: 'A B', deadlineS: 60 }, 'tokenEnvVar'],
    ['a zero deadline', { baseUrl: 'https://x.io', deadlineS: 0 }, 'deadlineS'],
    ['a fractional deadline', { baseUrl: 'https://x.io', deadlineS: 1.5 }, 'deadlineS'],
  ])('refuses %s, naming the field', (_name, input, field) => {
    try {
      claudeCodeHookSettings(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ZodError);
      expect((error as ZodError).issues[0]!.path).toEqual([field]);
    }
  });

  it('pretty-prints the block and quotes the token for the shell', () => {
    expect(JSON.parse(claudeCodeSettingsJson({ baseUrl: 'https://x.io', deadlineS: 5 }))).toEqual(
      claudeCodeHookSettings({ baseUrl: 'https://x.io', deadlineS: 5 }),
    );
    expect(tokenExportLine('gh_abc')).toBe("export GATEHOUSE_TOKEN='gh_abc'");
    expect(tokenExportLine("a'b")).toBe("export GATEHOUSE_TOKEN='a'\\''b'");
  });
});
