// The transport to one upstream server. stdio servers get a scrubbed environment (the SDK's short
// default list: HOME, PATH, USER, ...) plus their configured `env`, never Gatehouse's own secrets;
// their stderr goes to the server log line by line, prefixed with the server's name. HTTP servers'
// answers are read through boundedFetch (a size cap, a signal per request); a stdio server's
// messages through the SDK's line buffer, which closes the connection when one passes 10 MiB
// (the calls waiting fail as closed, and the server reconnects on its backoff).
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isHttp, type ServerConfig } from '../../agent/tools/mcp/config';
import { boundedFetch } from './bounded-fetch';

/** Longest stderr line kept in the log; a server printing megabytes cannot flood it. */
const MAX_LOG_LINE = 2_000;

/**
 * `onAnswerTooLarge`: an HTTP server's answer went past the cap (bounded-fetch.ts); the caller
 * makes the server unavailable, so a listing is never used half-read.
 */
export function createTransport(
  name: string,
  config: ServerConfig,
  log: (line: string) => void,
  onAnswerTooLarge?: (error: Error) => void,
): Transport {
  if (isHttp(config)) {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
      fetch: boundedFetch(onAnswerTooLarge ? { onTooLarge: onAnswerTooLarge } : {}),
    });
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
    // Explicit, so an SDK update cannot lift the bound unnoticed.
    maxBufferSize: STDIO_DEFAULT_MAX_BUFFER_SIZE,
  });
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = (lines.pop() ?? '').slice(0, MAX_LOG_LINE);
    for (const line of lines) if (line.trim() !== '') log(`[mcp:${name}] ${line.slice(0, MAX_LOG_LINE)}`);
  });
  return transport;
}
