// /connect: put Claude Code, Gemini CLI or Codex CLI behind this Gatehouse (`?agent=gemini-cli`
// opens Gemini CLI's, `?agent=codex` Codex CLI's). A token, the agent's settings block for this
// server (GATEHOUSE_PUBLIC_URL, else the origin this page was opened at), and the sessions
// connected so far. Any signed-in user who may hold API tokens.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { RequireRole } from '@/app/_auth/require-role';
import { ConnectView } from '@/components/connect/connect-view';
import { connectAgentNames, parseConnectAgent } from '@/lib/contract';
import { publicOrigin } from '@/lib/server/http/public-origin';
import { getRuntime } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Connect' };
export const dynamic = 'force-dynamic';

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function ConnectPage({ searchParams }: { searchParams: Search }) {
  const { config } = await getRuntime();
  const baseUrl = publicOrigin(await headers(), config.publicUrl);
  const initialAgent = parseConnectAgent((await searchParams).agent);
  return (
    <RequireRole action="tokens:manage:own" pathname="/connect">
      <h1 className="page-title">Connect an agent</h1>
      <p className="page-lead">
        Gatehouse decides the tool calls of {connectAgentNames('and')} with the same rules as its own agent, and asks
        you here when a call needs a human.
      </p>
      <ConnectView baseUrl={baseUrl} deadlineS={config.approvalTimeoutS} initialAgent={initialAgent} />
    </RequireRole>
  );
}
