// The `.gemini/settings.json` block that puts Gemini CLI behind Gatehouse: a `command` hook on
// every BeforeTool running scripts/gatehouse-hook.mjs, which posts the call to Gatehouse with the
// token from GATEHOUSE_TOKEN (so the file can be committed). Fail closed at each layer: the script
// exits 2 on any failure and gives up 5 s after the approval deadline, `|| exit 2` turns a script
// that cannot even start into a block, and Gemini CLI's own timeout (after which it would run the
// call) is the deadline plus a margin. Pure, so the README and the e2e spec use the same block.
import { hookTimeoutFor } from './claude-code-settings';
import {
  HOOK_SCRIPT_EXAMPLE,
  HOOK_TOKEN_ENV,
  HookCommandSettingsInputSchema,
  hookEndpoint,
  shellWord,
  type HookCommandSettingsInput,
} from './hook-command';

/** The environment variable scripts/gatehouse-hook.mjs reads the API token from. */
export const GEMINI_CLI_TOKEN_ENV = HOOK_TOKEN_ENV;
/** Where the README and the Connect page suggest copying scripts/gatehouse-hook.mjs to. */
export const GEMINI_CLI_HOOK_SCRIPT_EXAMPLE = HOOK_SCRIPT_EXAMPLE;

export const GeminiCliSettingsInputSchema = HookCommandSettingsInputSchema;
export type GeminiCliSettingsInput = HookCommandSettingsInput;

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

/** The settings block; throws a ZodError naming the field for a bad URL, script path or deadline. */
export function geminiCliHookSettings(input: GeminiCliSettingsInput): GeminiCliHookSettings {
  const { baseUrl, hookScript, deadlineS } = GeminiCliSettingsInputSchema.parse(input);
  const url = hookEndpoint(baseUrl, '/api/hooks/gemini-cli', deadlineS);
  return {
    hooks: {
      BeforeTool: [
        {
          matcher: '.*',
          hooks: [
            {
              name: 'gatehouse',
              type: 'command',
              command: `node ${shellWord(hookScript)} ${shellWord(url)} || exit 2`,
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
