// The `.gemini/settings.json` block that puts Gemini CLI behind Gatehouse: a `command` hook on
// every BeforeTool running scripts/gatehouse-hook.mjs, which posts the call to Gatehouse with the
// token from GATEHOUSE_TOKEN (so the file can be committed). Fail closed at each layer: the script
// exits 2 on any failure and gives up 5 s after the approval deadline, `|| exit 2` turns a script
// that cannot even start into a block, and Gemini CLI's own timeout (after which it would run the
// call) is the deadline plus a margin. Pure, so the README and the e2e spec use the same block.
import { z } from 'zod';
import { hookTimeoutFor } from './claude-code-settings';

/** The environment variable scripts/gatehouse-hook.mjs reads the API token from. */
export const GEMINI_CLI_TOKEN_ENV = 'GATEHOUSE_TOKEN';
/** Where the README and the Connect page suggest copying scripts/gatehouse-hook.mjs to. */
export const GEMINI_CLI_HOOK_SCRIPT_EXAMPLE = '/opt/gatehouse/gatehouse-hook.mjs';

export const GeminiCliSettingsInputSchema = z.object({
  /** The Gatehouse origin Gemini CLI reaches, e.g. `https://gatehouse.example.com`. */
  baseUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#']+(\/[^\s?#']*)?$/, 'baseUrl must be an http:// or https:// URL without query'),
  /** Where scripts/gatehouse-hook.mjs is on the machine that runs Gemini CLI (absolute). */
  hookScript: z
    .string()
    .min(1)
    .refine((p) => p.startsWith('/') && !p.includes('\u0000'), { message: 'hookScript must be an absolute path' }),
  /** How long a call may wait for a human, in seconds. */
  deadlineS: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600),
});
export type GeminiCliSettingsInput = z.input<typeof GeminiCliSettingsInputSchema>;

export interface GeminiCliCommandHook {
  name: string;
  type: 'command';
  command: string;
  /** Milliseconds (Gemini CLI's unit). */
  timeout: number;
}

export interface GeminiCliHookSettings {
  hooks: { BeforeTool: { matcher: string; hooks: GeminiCliCommandHook[] }[] };
}

/** A POSIX shell word: Gemini CLI runs the command with `bash -c`. */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The settings block; throws a ZodError naming the field for a bad URL, script path or deadline. */
export function geminiCliHookSettings(input: GeminiCliSettingsInput): GeminiCliHookSettings {
  const { baseUrl, hookScript, deadlineS } = GeminiCliSettingsInputSchema.parse(input);
  const url = `${baseUrl.replace(/\/+$/, '')}/api/hooks/gemini-cli?deadline=${deadlineS}`;
  return {
    hooks: {
      BeforeTool: [
        {
          matcher: '.*',
          hooks: [
            {
              name: 'gatehouse',
              type: 'command',
              command: `node ${quote(hookScript)} ${quote(url)} || exit 2`,
              timeout: hookTimeoutFor(deadlineS) * 1000,
            },
          ],
        },
      ],
    },
  };
}

/** The block as it goes into `.gemini/settings.json`. */
export function geminiCliSettingsJson(input: GeminiCliSettingsInput): string {
  return JSON.stringify(geminiCliHookSettings(input), null, 2);
}
