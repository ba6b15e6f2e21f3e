// Where scripts/gatehouse-hook.mjs is on the machine that runs a command-hook CLI (Gemini CLI,
// Codex CLI): the path field of their Connect steps, with its check. The block is shown only for a
// valid path (`valid`), never built from a bad one.
'use client';
import { useState } from 'react';
import { TextField } from '@/components/ui';
import { HOOK_SCRIPT_EXAMPLE, HookScriptSchema } from '@/lib/contract';

/** The path as typed and whether it is valid, for the block that uses it. */
export function useHookScript() {
  const [hookScript, setHookScript] = useState(HOOK_SCRIPT_EXAMPLE);
  return { hookScript, setHookScript, valid: HookScriptSchema.safeParse(hookScript).success };
}

export function HookScriptField({
  cli,
  hookScript,
  valid,
  onChange,
}: {
  /** The CLI's name, as the hint says it. */
  cli: string;
  hookScript: string;
  valid: boolean;
  onChange(value: string): void;
}) {
  return (
    <TextField
      label="Where gatehouse-hook.mjs is"
      value={hookScript}
      spellCheck={false}
      onChange={(e) => onChange(e.target.value)}
      hint={`Its absolute path on the machine that runs ${cli}.`}
      error={valid ? undefined : `Give an absolute path, such as ${HOOK_SCRIPT_EXAMPLE}.`}
    />
  );
}
