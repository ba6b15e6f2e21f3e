// What the command hooks of Gemini CLI and Codex CLI share: both run scripts/gatehouse-hook.mjs
// (copied to the machine that runs the CLI), which posts the call to Gatehouse with the token from
// GATEHOUSE_TOKEN, through a shell. The settings blocks themselves differ per CLI
// (gemini-cli-settings.ts, codex-settings.ts).
import { z } from 'zod';

/** The environment variable scripts/gatehouse-hook.mjs reads the API token from. */
export const HOOK_TOKEN_ENV = 'GATEHOUSE_TOKEN';
/** Where the README and the Connect page suggest copying scripts/gatehouse-hook.mjs to. */
export const HOOK_SCRIPT_EXAMPLE = '/opt/gatehouse/gatehouse-hook.mjs';

/** Where scripts/gatehouse-hook.mjs is on the machine that runs the CLI (absolute). */
export const HookScriptSchema = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/') && !p.includes('\u0000'), { message: 'hookScript must be an absolute path' });

export const HookCommandSettingsInputSchema = z.object({
  /** The Gatehouse origin the CLI reaches, e.g. `https://gatehouse.example.com`. */
  baseUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#']+(\/[^\s?#']*)?$/, 'baseUrl must be an http:// or https:// URL without query'),
  hookScript: HookScriptSchema,
  /** How long a call may wait for a human, in seconds. */
  deadlineS: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600),
});
export type HookCommandSettingsInput = z.input<typeof HookCommandSettingsInputSchema>;

/** A POSIX shell word: both CLIs run the hook command with a shell. */
export const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The hook endpoint for `path` on `baseUrl` (a trailing slash or several dropped), with the deadline. */
export const hookEndpoint = (baseUrl: string, path: string, deadlineS: number) =>
  `${baseUrl.replace(/\/+$/, '')}${path}?deadline=${deadlineS}`;
