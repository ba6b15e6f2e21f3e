// Gemini CLI's part of the Connect page: where to put scripts/gatehouse-hook.mjs (copied from the
// repository: the server does not serve it), the `.gemini/settings.json` block that runs it
// against this server, that an untrusted folder ignores project settings, and why a Gatehouse
// that cannot answer blocks the calls. An invalid script path shows its error, never a block.
'use client';
import { Card, CardHeader } from '@/components/ui';
import { geminiCliSettingsJson } from '@/lib/contract';
import { CodeBlock } from './code-block';
import { HookScriptField, useHookScript } from './hook-script-field';

export function GeminiCliSteps({ baseUrl, deadlineS }: { baseUrl: string; deadlineS: number }) {
  const { hookScript, setHookScript, valid } = useHookScript();
  return (
    <>
      <Card aria-labelledby="connect-settings-heading">
        <CardHeader id="connect-settings-heading" title="2. The hook in .gemini/settings.json" />
        <p className="connect-muted">
          Copy <code>scripts/gatehouse-hook.mjs</code> from the Gatehouse repository to the machine that runs Gemini CLI
          (plain Node, no dependencies: Gemini CLI needs Node, so <code>node</code> is there). The hook runs it before
          every tool call; it asks Gatehouse and passes the answer on.
        </p>
        <HookScriptField cli="Gemini CLI" hookScript={hookScript} valid={valid} onChange={setHookScript} />
        <p className="connect-muted">
          Merge the block into your project&apos;s <code>.gemini/settings.json</code> (or{' '}
          <code>~/.gemini/settings.json</code>). Every tool call then asks Gatehouse first; a call that needs a human
          waits up to {deadlineS} s for an answer here.
        </p>
        <p className="connect-muted">
          <strong>Untrusted folders:</strong> Gemini CLI ignores a project&apos;s <code>.gemini/settings.json</code> in
          a folder it does not trust, so there the project block guards nothing. <code>~/.gemini/settings.json</code>,
          or <code>/etc/gemini-cli/settings.json</code> for every user of the machine, covers every folder.
        </p>
        {valid && (
          <CodeBlock label=".gemini/settings.json" text={geminiCliSettingsJson({ baseUrl, hookScript, deadlineS })} />
        )}
      </Card>
      <Card aria-labelledby="connect-down-heading">
        <CardHeader id="connect-down-heading" title="When Gatehouse is down" />
        <p className="connect-muted">
          The hook fails closed. Gemini CLI runs a call after a hook that exits with any code but 2, so the script exits
          2 (the call is blocked, and the model reads why) whenever Gatehouse cannot be reached, answers an error, or
          answers anything but allow or deny. It gives up 5 s after the deadline, before Gemini CLI&apos;s own{' '}
          <code>timeout</code>, and <code>|| exit 2</code> blocks the call when the script cannot even start. Nothing
          runs that Gatehouse did not allow.
        </p>
      </Card>
    </>
  );
}
