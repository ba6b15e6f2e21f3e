// Step one of connecting an agent: a fresh agent token of the signed-in user (through the token API,
// `purpose: 'agent'`), shown once inside the shell line that puts it in the variable the agent's
// hook reads. The token stays out of the settings file, which can then be committed. An agent
// token only asks the gate: the agent's own shell can read it, so it must not decide relays.
'use client';
import { useState } from 'react';
import { Button, Card, CardHeader, Notice } from '@/components/ui';
import {
  CLAUDE_CODE_TOKEN_ENV,
  CODEX_TOKEN_ENV,
  CONNECT_AGENT_LABELS,
  GEMINI_CLI_TOKEN_ENV,
  tokenExportLine,
  type ConnectAgent,
} from '@/lib/contract';
import { useCreateToken, type CreatedToken } from '@/lib/client/tokens';
import { CodeBlock } from './code-block';
import { ConnectTokens } from './connect-tokens';
import { connectTokenName } from './token-name';

const TOKEN_ENV: Record<ConnectAgent, string> = {
  'claude-code': CLAUDE_CODE_TOKEN_ENV,
  'gemini-cli': GEMINI_CLI_TOKEN_ENV,
  codex: CODEX_TOKEN_ENV,
};

export function TokenStep({ agent }: { agent: ConnectAgent }) {
  const create = useCreateToken();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const label = CONNECT_AGENT_LABELS[agent];
  const env = TOKEN_ENV[agent];

  function createToken() {
    setCreated(null);
    create.mutate({ name: connectTokenName(agent), purpose: 'agent' }, { onSuccess: setCreated });
  }

  return (
    <Card aria-labelledby="connect-token-heading">
      <CardHeader id="connect-token-heading" title={`1. A token for ${label}`} />
      <TokenUse agent={agent} env={env} />
      <p className="connect-muted">
        It is an agent token: it only asks the gate, so whatever reads it from {label}&apos;s environment cannot approve
        its calls or change the policy. Its calls are yours to decide here; revoke it below at any time ({label}&apos;s
        calls are then blocked until it has a new one).
      </p>
      <div className="connect-actions">
        <Button variant="primary" onClick={createToken} disabled={create.isPending}>
          Create a token
        </Button>
      </div>
      {create.isError && <Notice tone="danger">Could not create a token: {create.error.message}</Notice>}
      <CodeBlock
        label={`Shell: the token for ${label}`}
        text={tokenExportLine(created ? created.token : '<create a token above>', env)}
        hint={created ? 'Copy it now: the token is shown only once.' : undefined}
      />
      <ConnectTokens />
    </Card>
  );
}

/** How the agent's hook gets the token from the environment. */
function TokenUse({ agent, env }: { agent: ConnectAgent; env: string }) {
  switch (agent) {
    case 'claude-code':
      return (
        <p className="connect-muted">
          Claude Code sends it as <code>Authorization: Bearer</code> from the environment variable <code>{env}</code>.
        </p>
      );
    case 'gemini-cli':
      return (
        <p className="connect-muted">
          The hook script sends it as <code>Authorization: Bearer</code> from the environment variable{' '}
          <code>{env}</code>, which Gemini CLI passes on to its hooks. With{' '}
          <code>security.environmentVariableRedaction</code> on, add <code>{env}</code> to its <code>allowed</code>{' '}
          list, or the hook has no token (and blocks every call).
        </p>
      );
    case 'codex':
      return (
        <p className="connect-muted">
          The hook script sends it as <code>Authorization: Bearer</code> from the environment variable{' '}
          <code>{env}</code>, which Codex passes on to its hooks; without it the hook blocks every call. Codex passes it
          to the model&apos;s commands too, unless <code>~/.codex/config.toml</code> keeps it from them (below).
        </p>
      );
  }
}
