// The real reference MCP servers from npm, started as the tests' upstreams.
import path from 'node:path';
import type { StdioServerConfig } from '../../agent/tools/mcp/config';

const pkg = (name: string) => path.resolve('node_modules/@modelcontextprotocol', name, 'dist/index.js');

export const everythingStdio = (extra: Partial<StdioServerConfig> = {}): StdioServerConfig => ({
  command: process.execPath,
  args: [pkg('server-everything'), 'stdio'],
  ...extra,
});

export const filesystemStdio = (dir: string, extra: Partial<StdioServerConfig> = {}): StdioServerConfig => ({
  command: process.execPath,
  args: [pkg('server-filesystem'), dir],
  ...extra,
});

export const everythingScript = pkg('server-everything');

export const silentLog = () => {
  const lines: string[] = [];
  return Object.assign((line: string) => void lines.push(line), { lines });
};
