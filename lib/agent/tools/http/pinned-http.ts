// One HTTP(S) GET to an address that was already resolved and checked. The socket connects to
// that address (a custom `lookup` hands it back), while the URL's host name is kept for the Host
// header, SNI and certificate checks: a DNS answer that changes after the check (rebinding)
// cannot redirect the connection.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A `lookup` for net.connect that always answers with the pinned address, in either callback form. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node 20's default) net asks for `all` and expects an array.
    if (options.all) (callback as (err: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

export function requestPinned(url: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
        headers: {
          'user-agent': 'Gatehouse-Agent/0.1 (fetch_url)',
          accept: '*/*',
          'accept-encoding': 'gzip, deflate, br',
        },
        lookup: pinnedLookup(pinned),
        family: pinned.family,
        // A fresh connection every time: a pooled socket might lead to an address checked for another URL.
        agent: false,
        signal,
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/** The body as sent, decompressed if the server compressed it; unknown encodings stay as they are. */
export function decodedBody(response: IncomingMessage): { stream: Readable; decoded: boolean } {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return { stream: response, decoded: encoding === '' || encoding === 'identity' };
  // pipeline, not pipe: an aborted or broken response must fail the reader, not leave it waiting.
  return { stream: pipeline(response, decoder, () => {}), decoded: true };
}

/**
 * Reads at most `maxBytes` (decompressed bytes: a small compressed body cannot expand past the
 * cap in memory), then stops reading. `complete` is false when more was left unread.
 */
export async function readCapped(stream: Readable, maxBytes: number): Promise<{ bytes: Buffer; complete: boolean }> {
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - kept;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      stream.destroy();
      return { bytes: Buffer.concat(chunks), complete: false };
    }
    chunks.push(chunk);
    kept += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), complete: true };
}
