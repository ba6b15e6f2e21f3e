// What the coding-CLI hook adapters (claude-code.ts, gemini-cli.ts, codex.ts) read alike from a
// hook's input: the session the call belongs to (a run per CLI session), its workspace, and the
// user's home, taken from where the CLI keeps its transcripts so that `~/.ssh/**` in a rule means
// that user's home rather than the server's.
import { z } from 'zod';
import type { ExternalCall, ExternalSessionRef } from '../external/types';

/**
 * A hook's `tool_name`: any JSON (its mapper names a wrong shape), but a name of at most 200
 * characters, as /api/hooks/decide's `tool`: a decision's audit row keeps it in an indexed column,
 * which a much longer name would make unstorable after the hook was answered.
 */
export const HookToolNameSchema = z
  .unknown()
  .refine((name) => typeof name !== 'string' || name.length <= 200, 'must be at most 200 characters');

/** The fields of a hook's input every CLI sends alike (each adapter's schema checks them). */
export interface HookInputBase {
  session_id: string;
  cwd?: string | undefined;
  transcript_path?: unknown;
}

export interface HookClient {
  /** The agent named on its runs (`claude-code`). */
  agent: string;
  /** The session's title when the call names no directory: `<label> session <id>`. */
  label: string;
  /** Where the CLI keeps its transcripts under the user's home (`/.claude/projects/`). */
  transcripts: string;
}

export function hookSession(client: HookClient, owner: string, input: HookInputBase): ExternalSessionRef {
  return {
    owner,
    source: 'hook',
    agent: client.agent,
    externalId: input.session_id,
    title: input.cwd ?? `${client.label} session ${input.session_id}`,
  };
}

/** The call's workspace (its cwd) and the user's home, when the input says them. */
export function hookCallPlace(client: HookClient, input: HookInputBase): Pick<ExternalCall, 'workspace' | 'homeDir'> {
  const transcript = typeof input.transcript_path === 'string' ? input.transcript_path : '';
  const at = transcript.indexOf(client.transcripts);
  return {
    ...(input.cwd ? { workspace: input.cwd } : {}),
    ...(at > 0 && transcript.startsWith('/') ? { homeDir: transcript.slice(0, at) } : {}),
  };
}
