// The Servers page: the config file's errors and stored servers not loaded, every server, and the form to add one (stdio too
// when the server says GATEHOUSE_MCP_UI_STDIO=1).
'use client';
import { Notice } from '@/components/ui';
import { useServers } from '@/lib/client/servers';
import { ConfigError } from './config-error';
import { ServerCard } from './server-card';
import { ServerForm } from './server-form';
import './servers.css';

export function ServersView() {
  const servers = useServers();
  if (servers.isPending) return <p role="status">Loading servers…</p>;
  if (servers.error) return <Notice tone="danger">{servers.error.message}</Notice>;
  const { errors, servers: list, allowStdio } = servers.data;
  return (
    <div className="servers-view">
      {errors.map((e) => (
        <ConfigError key={`${e.server}/${e.field}`} error={e} />
      ))}
      {list.length === 0 && <p>No MCP servers yet.</p>}
      {list.map((server) => (
        <ServerCard key={server.name} server={server} allowStdio={allowStdio} />
      ))}
      <ServerForm allowStdio={allowStdio} />
    </div>
  );
}
