// One webhook attempt: a POST to a checked, pinned address with a hard time limit covering the
// connection, the answer's headers and its (discarded, capped) body. A 2xx is success.
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from '../../agent/tools/http/pinned-http';
import type { CheckedTarget } from './target';

export interface PostResult {
  ok: boolean;
  status?: number;
  error?: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export function postJson(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostResult> {
  const { url, pinned } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const request = client.request(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Gatehouse-Webhooks/1',
          ...headers,
        },
        lookup: pinnedLookup(pinned),
        family: pinned.family,
        agent: false,
        signal,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const status = response.statusCode ?? 0;
        const done = () =>
          resolve(
            status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `HTTP ${status}` },
          );
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', (error) =>
      resolve({ ok: false, error: signal.aborted ? `no answer within ${timeoutMs} ms` : error.message }),
    );
    request.end(body);
  });
}
