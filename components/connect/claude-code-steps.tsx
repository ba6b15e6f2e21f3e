// Claude Code's part of the Connect page: its `.claude/settings.json` block for this server (an
// http hook, the deadline in the URL) and why a Gatehouse that cannot answer blocks its calls.
'use client';
import { Card, CardHeader } from '@/components/ui';
import { CLAUDE_CODE_MIN_VERSION, claudeCodeSettingsJson } from '@/lib/contract';
import { CodeBlock } from './code-block';

export function ClaudeCodeSteps({ baseUrl, deadlineS }: { baseUrl: string; deadlineS: number }) {
  return (
    <>
      <Card aria-labelledby="connect-settings-heading">
        <CardHeader id="connect-settings-heading" title="2. The hook in .claude/settings.json" />
        <p className="connect-muted">
          Merge this into your project&apos;s <code>.claude/settings.json</code> (or{' '}
          <code>~/.claude/settings.json</code> for every project). Every tool call then asks Gatehouse first; a call
          that needs a human waits up to {deadlineS} s for an answer here. Needs Claude Code {CLAUDE_CODE_MIN_VERSION}{' '}
          or later.
        </p>
        <CodeBlock label=".claude/settings.json" text={claudeCodeSettingsJson({ baseUrl, deadlineS })} />
      </Card>
      <Card aria-labelledby="connect-down-heading">
        <CardHeader id="connect-down-heading" title="When Gatehouse is down" />
        <p className="connect-muted">
          The hook fails closed (<code>onFailure: &quot;block&quot;</code>): if Gatehouse cannot be reached, answers an
          error, or takes longer than the hook&apos;s timeout, Claude Code refuses the tool call. Nothing runs that
          Gatehouse did not allow. Calls waiting for a human are answered &ldquo;approval timeout&rdquo; before Claude
          Code gives up.
        </p>
      </Card>
    </>
  );
}
