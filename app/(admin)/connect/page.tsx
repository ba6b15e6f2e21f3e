// /connect: put Claude Code behind this Gatehouse. A token, the `.claude/settings.json` hook block
// for this server (GATEHOUSE_PUBLIC_URL, else the origin this page was opened at), and the sessions
// connected so far. Any signed-in user who may hold API tokens.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { RequireRole } from '@/app/_auth/require-role';
import { ConnectView } from '@/components/connect/connect-view';
import { publicOrigin } from '@/lib/server/http/public-origin';
import { getRuntime } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Connect' };
export const dynamic = 'force-dynamic';

export default async function ConnectPage() {
  const { config } = await getRuntime();
  const baseUrl = publicOrigin(await headers(), config.publicUrl);
  return (
    <RequireRole action="tokens:manage:own" pathname="/connect">
      <h1 className="page-title">Connect Claude Code</h1>
      <p className="page-lead">
        Gatehouse decides Claude Code&apos;s tool calls with the same rules as its own agent, and asks you here when a
        call needs a human.
      </p>
      <ConnectView baseUrl={baseUrl} deadlineS={config.approvalTimeoutS} />
    </RequireRole>
  );
}
