// The /connect page body: how to put Claude Code behind this Gatehouse (a token, the settings
// block for this server), what happens when Gatehouse cannot answer, and the sessions that have
// called so far (runs whose source is `hook`).
'use client';
import Link from 'next/link';
import { Card, CardHeader, Notice } from '@/components/ui';
import { RunsTable } from '@/components/runs/runs-table';
import { CLAUDE_CODE_MIN_VERSION, claudeCodeSettingsJson } from '@/lib/contract';
import { useRunsList } from '@/lib/client/runs-list';
import { CodeBlock } from './code-block';
import { TokenStep } from './token-step';
import './connect.css';

export function ConnectView({ baseUrl, deadlineS }: { baseUrl: string; deadlineS: number }) {
  return (
    <>
      <TokenStep />
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
        <p className="connect-muted">
          To approve from a phone, open this Gatehouse&apos;s <Link href="/runs">Runs</Link> page there: each Claude
          Code session is a run, and its waiting calls open in the approval dialog.
        </p>
      </Card>
      <ConnectedSessions />
    </>
  );
}

function ConnectedSessions() {
  const runs = useRunsList({ source: 'hook' });
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card aria-labelledby="connect-sessions-heading">
      <CardHeader id="connect-sessions-heading" title="Connected sessions" />
      {runs.isError && <Notice tone="danger">Could not load the sessions: {runs.error.message}</Notice>}
      {runs.isSuccess && items.length === 0 && (
        <p className="connect-muted">No Claude Code session has called yet. Start Claude Code in the project.</p>
      )}
      {items.length > 0 && <RunsTable runs={items} />}
    </Card>
  );
}
