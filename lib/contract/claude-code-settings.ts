// The `.claude/settings.json` block that puts Claude Code behind Gatehouse: an `http` hook on
// every PreToolUse, authenticated with a token Claude Code reads from an environment variable
// (so the file can be committed), answered before the hook's own timeout (the approval deadline
// travels in the URL and is shorter), and fail closed: `onFailure: "block"` (Claude Code 2.1.295
// and later) makes an unreachable or failing Gatehouse refuse the call instead of letting it run.
// Pure, so the Connect page and the server build the same block.
import { z } from 'zod';

export const CLAUDE_CODE_TOKEN_ENV = 'GATEHOUSE_TOKEN';
/** Seconds the hook waits beyond the deadline, at least: Gatehouse answers "approval timeout" first. */
export const HOOK_TIMEOUT_MARGIN_S = 15;
/** Claude Code's first version with `onFailure` on hooks (older ones ignore it and fail open). */
export const CLAUDE_CODE_MIN_VERSION = '2.1.295';

export const ClaudeCodeSettingsInputSchema = z.object({
  /** The Gatehouse origin Claude Code reaches, e.g. `https://gatehouse.example.com`. */
  baseUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'baseUrl must be an http:// or https:// URL without query'),
  tokenEnvVar: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]{0,99}$/, 'tokenEnvVar must be an environment variable name (A-Z, 0-9, _)')
    .default(CLAUDE_CODE_TOKEN_ENV),
  /** How long a call may wait for a human, in seconds. */
  deadlineS: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600),
});
export type ClaudeCodeSettingsInput = z.input<typeof ClaudeCodeSettingsInputSchema>;

export interface ClaudeCodeHttpHook {
  type: 'http';
  url: string;
  headers: Record<string, string>;
  allowedEnvVars: string[];
  timeout: number;
  onFailure: 'block';
}

export interface ClaudeCodeHookSettings {
  hooks: { PreToolUse: { matcher: string; hooks: ClaudeCodeHttpHook[] }[] };
}

/** The hook's timeout: the deadline plus a margin (10%, at least HOOK_TIMEOUT_MARGIN_S). */
export function hookTimeoutFor(deadlineS: number): number {
  return deadlineS + Math.max(HOOK_TIMEOUT_MARGIN_S, Math.ceil(deadlineS / 10));
}

/** The settings block; throws a ZodError naming the field for a bad URL, variable name or deadline. */
export function claudeCodeHookSettings(input: ClaudeCodeSettingsInput): ClaudeCodeHookSettings {
  const { baseUrl, tokenEnvVar, deadlineS } = ClaudeCodeSettingsInputSchema.parse(input);
  const base = baseUrl.replace(/\/+$/, '');
  return {
    hooks: {
      PreToolUse: [
        {
          matcher: '*',
          hooks: [
            {
              type: 'http',
              url: `${base}/api/hooks/claude-code?deadline=${deadlineS}`,
              headers: { Authorization: `Bearer $${tokenEnvVar}` },
              allowedEnvVars: [tokenEnvVar],
              timeout: hookTimeoutFor(deadlineS),
              onFailure: 'block',
            },
          ],
        },
      ],
    },
  };
}

/** The block as it goes into `.claude/settings.json`. */
export function claudeCodeSettingsJson(input: ClaudeCodeSettingsInput): string {
  return JSON.stringify(claudeCodeHookSettings(input), null, 2);
}

/** The shell line that gives Claude Code the token (kept out of the settings file). */
export function tokenExportLine(token: string, tokenEnvVar: string = CLAUDE_CODE_TOKEN_ENV): string {
  return `export ${tokenEnvVar}='${token.replace(/'/g, `'\\''`)}'`;
}
