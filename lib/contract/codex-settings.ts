// The `~/.codex/hooks.json` block that puts Codex CLI behind Gatehouse: a `command` hook on every
// PreToolUse running scripts/gatehouse-hook.mjs --codex, which posts the call to Gatehouse with the
// token from GATEHOUSE_TOKEN (so the file holds no secret). Fail closed at each layer: the script
// exits 2 with a reason on any failure and gives up 5 s after the approval deadline; the shell
// tail turns a script that cannot even start into exit 2 with a reason (Codex 0.169.0 runs the
// call on any other exit, and on an exit 2 with nothing on stderr); and Codex's own timeout (after
// which it would run the call) is the deadline plus a margin. Pure, so the README and the e2e spec
// use the same block, and the Connect page builds it for its server.
import { hookTimeoutFor } from './claude-code-settings';
import {
  HOOK_SCRIPT_EXAMPLE,
  HOOK_TOKEN_ENV,
  HookCommandSettingsInputSchema,
  hookEndpoint,
  shellWord,
  type HookCommandSettingsInput,
} from './hook-command';

/** The environment variable scripts/gatehouse-hook.mjs reads the API token from (as for Gemini CLI). */
export const CODEX_TOKEN_ENV = HOOK_TOKEN_ENV;
/** Where the Connect page suggests copying scripts/gatehouse-hook.mjs to: the same script as Gemini CLI's. */
export const CODEX_HOOK_SCRIPT_EXAMPLE = HOOK_SCRIPT_EXAMPLE;

/**
 * The `~/.codex/config.toml` lines that keep the token out of the model's commands: Codex passes
 * its whole environment to them otherwise (its hooks still get it).
 */
export const CODEX_CONFIG_TOML = `[shell_environment_policy]\nexclude = ["${CODEX_TOKEN_ENV}"]\n`;

export const CodexSettingsInputSchema = HookCommandSettingsInputSchema;
export type CodexSettingsInput = HookCommandSettingsInput;

export interface CodexCommandHook {
  type: 'command';
  command: string;
  /** Seconds (Codex's unit). */
  timeout: number;
}

export interface CodexHookSettings {
  hooks: { PreToolUse: { matcher: string; hooks: CodexCommandHook[] }[] };
}

/** Any exit but 0 becomes exit 2, with a reason on stderr unless the script gave one (its exit 2). */
const FAIL_CLOSED = `|| { s=$?; [ "$s" = 2 ] || echo "Gatehouse hook failed (exit $s)" >&2; exit 2; }`;

/** The hooks.json block; throws a ZodError naming the field for a bad URL, script path or deadline. */
export function codexHookSettings(input: CodexSettingsInput): CodexHookSettings {
  const { baseUrl, hookScript, deadlineS } = CodexSettingsInputSchema.parse(input);
  const url = hookEndpoint(baseUrl, '/api/hooks/codex', deadlineS);
  return {
    hooks: {
      PreToolUse: [
        {
          matcher: '.*',
          hooks: [
            {
              type: 'command',
              command: `node ${shellWord(hookScript)} ${shellWord(url)} --codex ${FAIL_CLOSED}`,
              timeout: hookTimeoutFor(deadlineS),
            },
          ],
        },
      ],
    },
  };
}

/** The block as it goes into `~/.codex/hooks.json`. */
export function codexSettingsJson(input: CodexSettingsInput): string {
  return JSON.stringify(codexHookSettings(input), null, 2);
}
