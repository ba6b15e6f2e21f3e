// Codex CLI's part of the Connect page: where to put scripts/gatehouse-hook.mjs (copied from the
// repository: the server does not serve it), the `~/.codex/hooks.json` block that runs it with
// --codex against this server, the config.toml lines that keep the token from the model's
// commands, that Codex skips a hook nobody has trusted, and why a Gatehouse that cannot answer
// blocks the calls. An invalid script path shows its error, never a block.
'use client';
import { Card, CardHeader } from '@/components/ui';
import { CODEX_CONFIG_TOML, CODEX_TOKEN_ENV, codexSettingsJson } from '@/lib/contract';
import { CodeBlock } from './code-block';
import { HookScriptField, useHookScript } from './hook-script-field';

export function CodexSteps({ baseUrl, deadlineS }: { baseUrl: string; deadlineS: number }) {
  const { hookScript, setHookScript, valid } = useHookScript();
  return (
    <>
      <Card aria-labelledby="connect-settings-heading">
        <CardHeader id="connect-settings-heading" title="2. The hook in ~/.codex/hooks.json" />
        <p className="connect-muted">
          Copy <code>scripts/gatehouse-hook.mjs</code> from the Gatehouse repository to the machine that runs Codex CLI
          (plain Node, no dependencies: it needs <code>node</code> there). The hook runs it with <code>--codex</code>{' '}
          before every tool call; it asks Gatehouse and answers in Codex&apos;s format.
        </p>
        <HookScriptField cli="Codex CLI" hookScript={hookScript} valid={valid} onChange={setHookScript} />
        <p className="connect-muted">
          Merge the block into <code>~/.codex/hooks.json</code> (or <code>$CODEX_HOME/hooks.json</code>). Every tool
          call then asks Gatehouse first; a call that needs a human waits up to {deadlineS} s for an answer here (Codex
          has no prompt of its own a hook could hand it to). Verified with Codex CLI 0.169.0.
        </p>
        {valid && (
          <CodeBlock label="~/.codex/hooks.json" text={codexSettingsJson({ baseUrl, hookScript, deadlineS })} />
        )}
        <p className="connect-muted">
          Codex passes its whole environment to the model&apos;s commands too, so add this to{' '}
          <code>~/.codex/config.toml</code>: it keeps <code>{CODEX_TOKEN_ENV}</code> from them (the hook still gets it).
        </p>
        <CodeBlock label="~/.codex/config.toml" text={CODEX_CONFIG_TOML} />
      </Card>
      <Card aria-labelledby="connect-trust-heading">
        <CardHeader id="connect-trust-heading" title="3. Trust the hook, or it does not run" />
        <p className="connect-muted">
          Codex runs a hook from <code>hooks.json</code> only once it has been reviewed and trusted, and skips a hook
          nobody has trusted without a word: its calls then run without asking Gatehouse. Start Codex interactively once
          and trust the Gatehouse hook when it asks (the trust is recorded in <code>config.toml</code>); a changed hook
          needs a new review.
        </p>
        <p className="connect-muted">
          <code>codex exec</code> has no review prompt: there, pass <code>--dangerously-bypass-hook-trust</code> only
          when you control the hook files.
        </p>
      </Card>
      <Card aria-labelledby="connect-down-heading">
        <CardHeader id="connect-down-heading" title="When Gatehouse is down" />
        <p className="connect-muted">
          The hook fails closed. Codex runs a call after a hook that exits with any code but 2, or exits 2 with nothing
          on stderr, so the script exits 2 with the reason on stderr (the call is blocked, and the model reads why)
          whenever Gatehouse cannot be reached, answers an error status or anything but an allow or a deny, or the hook
          has no token. It gives up 5 s after the deadline, before Codex&apos;s own <code>timeout</code>, and the shell
          tail after the script blocks the call, with a reason, when the script cannot even start. Nothing runs that
          Gatehouse did not allow, once the hook is trusted.
        </p>
      </Card>
    </>
  );
}
