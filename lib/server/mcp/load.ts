// The catalog the server starts with: the servers of GATEHOUSE_MCP_CONFIG. A malformed entry is
// logged naming its server and field, and every other server still loads; an unreadable file is
// one such error. Servers connect in the background: a slow one never delays the start.
import { readFileSync } from 'node:fs';
import { formatConfigError, parseMcpConfigText, type ParsedConfig } from '../../agent/tools/mcp/config';
import { McpCatalog } from './catalog';
import type { PinStore } from './pins';
import type { UpstreamOptions } from './upstream';

export function readMcpConfigFile(file: string | undefined): ParsedConfig {
  if (!file) return { servers: [], errors: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      servers: [],
      errors: [
        {
          server: 'mcpServers',
          field: '(file)',
          message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        },
      ],
    };
  }
  return parseMcpConfigText(text);
}

export function startMcpCatalog(options: {
  file?: string;
  pins?: PinStore;
  log?: (line: string) => void;
  callMeta?: UpstreamOptions['callMeta'];
}): McpCatalog {
  const log = options.log ?? ((line: string) => console.error(line));
  const parsed = readMcpConfigFile(options.file);
  for (const error of parsed.errors) log(`[gatehouse] ${formatConfigError(error)}`);
  const catalog = new McpCatalog({
    servers: parsed.servers,
    errors: parsed.errors,
    log,
    ...(options.pins ? { pins: options.pins } : {}),
    ...(options.callMeta ? { upstream: { callMeta: options.callMeta } } : {}),
  });
  void catalog.start();
  return catalog;
}
