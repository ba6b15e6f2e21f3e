// The /connect page body: the agent to connect (Claude Code, Gemini CLI or Codex CLI), then how to
// put it behind this Gatehouse (a token, the settings block for this server, what happens when
// Gatehouse cannot answer), and the sessions that have called so far. The choice is kept in `?agent=`, so a
// reload or a shared link opens the same agent.
'use client';
import { useState } from 'react';
import { Card, RadioGroup } from '@/components/ui';
import { CONNECT_AGENT_LABELS, type ConnectAgent } from '@/lib/contract';
import { ClaudeCodeSteps } from './claude-code-steps';
import { CodexSteps } from './codex-steps';
import { ConnectedSessions } from './connected-sessions';
import { GeminiCliSteps } from './gemini-cli-steps';
import { TokenStep } from './token-step';
import './connect.css';

export function ConnectView({
  baseUrl,
  deadlineS,
  initialAgent,
}: {
  baseUrl: string;
  deadlineS: number;
  initialAgent: ConnectAgent;
}) {
  const [agent, setAgent] = useState<ConnectAgent>(initialAgent);

  function choose(next: ConnectAgent) {
    setAgent(next);
    const url = new URL(window.location.href);
    url.searchParams.set('agent', next);
    window.history.replaceState(null, '', url);
  }

  return (
    <>
      <Card>
        <RadioGroup<ConnectAgent>
          legend="Agent to connect"
          name="connect-agent"
          value={agent}
          onChange={choose}
          options={[
            { value: 'claude-code', label: CONNECT_AGENT_LABELS['claude-code'], hint: '(an HTTP hook)' },
            { value: 'gemini-cli', label: CONNECT_AGENT_LABELS['gemini-cli'], hint: '(a command hook)' },
            { value: 'codex', label: CONNECT_AGENT_LABELS.codex, hint: '(a command hook)' },
          ]}
        />
      </Card>
      <TokenStep agent={agent} />
      <AgentSteps agent={agent} baseUrl={baseUrl} deadlineS={deadlineS} />
      <ConnectedSessions />
    </>
  );
}

function AgentSteps({ agent, ...server }: { agent: ConnectAgent; baseUrl: string; deadlineS: number }) {
  switch (agent) {
    case 'claude-code':
      return <ClaudeCodeSteps {...server} />;
    case 'gemini-cli':
      return <GeminiCliSteps {...server} />;
    case 'codex':
      return <CodexSteps {...server} />;
  }
}
