// /servers: admins see the upstream MCP servers, test them, add and edit servers (stdio only with
// GATEHOUSE_MCP_UI_STDIO=1), and review changed tool definitions. Guarded on the server: nobody
// → /login, non-admin → no access.
import type { Metadata } from 'next';
import { RequireRole } from '@/app/_auth/require-role';
import { ServersView } from '@/components/servers/servers-view';

export const metadata: Metadata = { title: 'Servers' };

export default function ServersPage() {
  return (
    <RequireRole action="servers:manage" pathname="/servers">
      <h1 className="page-title">Servers</h1>
      <p className="page-lead">
        Upstream MCP servers whose tools agents get as <code>mcp__&lt;server&gt;__&lt;tool&gt;</code>, each call decided
        by the policy. A tool whose definition changed is refused until you accept the change here.
      </p>
      <ServersView />
    </RequireRole>
  );
}
