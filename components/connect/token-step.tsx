// Step one of connecting Claude Code: a fresh API token of the signed-in user (through the token
// API, as the Users page creates them), shown once inside the shell line that hands it to Claude
// Code. The token stays out of the settings file, which can then be committed.
'use client';
import { useState } from 'react';
import { Button, Card, CardHeader, Notice } from '@/components/ui';
import { CLAUDE_CODE_TOKEN_ENV, tokenExportLine } from '@/lib/contract';
import { useCreateToken, type CreatedToken } from '@/lib/client/tokens';
import { ClaudeTokens } from './claude-tokens';
import { CodeBlock } from './code-block';
import { claudeCodeTokenName } from './token-name';

export function TokenStep() {
  const create = useCreateToken();
  const [created, setCreated] = useState<CreatedToken | null>(null);

  function createToken() {
    setCreated(null);
    create.mutate({ name: claudeCodeTokenName() }, { onSuccess: setCreated });
  }

  return (
    <Card aria-labelledby="connect-token-heading">
      <CardHeader id="connect-token-heading" title="1. A token for Claude Code" />
      <p className="connect-muted">
        Claude Code sends it as <code>Authorization: Bearer</code> from the environment variable{' '}
        <code>{CLAUDE_CODE_TOKEN_ENV}</code>. It acts as you: decisions and grants are yours. Revoke it below at any
        time (Claude Code&apos;s calls are then blocked until it has a new one).
      </p>
      <div className="connect-actions">
        <Button variant="primary" onClick={createToken} disabled={create.isPending}>
          Create a token
        </Button>
      </div>
      {create.isError && <Notice tone="danger">Could not create a token: {create.error.message}</Notice>}
      <CodeBlock
        label="Shell: the token for Claude Code"
        text={created ? tokenExportLine(created.token) : tokenExportLine('<create a token above>')}
        hint={created ? 'Copy it now: the token is shown only once.' : undefined}
      />
      <ClaudeTokens />
    </Card>
  );
}
