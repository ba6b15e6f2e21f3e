// Turns a fetch_url response into the tool result: status line, content type, and the body as
// text for textual types (capped, marked when cut); other types are only summarized.
import type { IncomingMessage } from 'node:http';
import { decodedBody, readCapped } from './pinned-http';
import { formatBytes, truncationMarker } from '../truncate';
import type { ToolResult } from '../types';

const TEXT_TYPES =
  /^(text\/.*|application\/(json|xml|javascript|ecmascript|x-javascript|x-www-form-urlencoded|yaml|x-yaml|toml|x-sh|graphql|ld\+json)|.*\+(json|xml))$/;

export function isTextual(contentType: string | undefined): boolean {
  if (!contentType) return true; // unknown: decoded, and refused below if it looks binary
  return TEXT_TYPES.test(mimeOf(contentType));
}

function mimeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function charsetOf(contentType: string | undefined): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1] ?? 'utf-8';
}

export async function describeResponse(
  response: IncomingMessage,
  at: { url: string; visited: string[]; maxBytes: number },
): Promise<ToolResult> {
  const status = response.statusCode ?? 0;
  const contentType = response.headers['content-type'];
  const declaredLength = Number(response.headers['content-length'] ?? NaN);
  const head = [
    `HTTP ${status} ${response.statusMessage ?? ''}`.trimEnd(),
    `Content-Type: ${contentType ?? '(none)'}`,
    ...(at.visited.length > 1 ? [`Redirected: ${at.visited.join(' -> ')}`] : []),
  ];
  const metadata: Record<string, unknown> = {
    status,
    contentType: contentType ?? null,
    url: at.url,
    redirects: at.visited.slice(1),
  };
  const isError = status >= 400;
  try {
    if (!isTextual(contentType)) {
      const size = Number.isFinite(declaredLength) ? formatBytes(declaredLength) : 'unknown size';
      return summary([...head, '', `[${mimeOf(contentType ?? '')} content, ${size}: not shown]`], isError, metadata);
    }
    const { stream, decoded } = decodedBody(response);
    if (!decoded) {
      return summary(
        [...head, '', `[content with encoding ${String(response.headers['content-encoding'])}: not shown]`],
        isError,
        metadata,
      );
    }
    const { bytes, complete } = await readCapped(stream, at.maxBytes);
    metadata.bytes = bytes.length;
    let text = decode(bytes, charsetOf(contentType), !complete);
    if (text === undefined) {
      const size = complete ? formatBytes(bytes.length) : `over ${formatBytes(at.maxBytes)}`;
      return summary([...head, '', `[binary-looking content, ${size}: not shown]`], isError, metadata);
    }
    if (!complete) {
      // Content-Length counts the encoded body: it is the total only for an unencoded one.
      const known = !response.headers['content-encoding'] && Number.isFinite(declaredLength);
      text += known ? truncationMarker(declaredLength) : `\n[output truncated: over ${formatBytes(at.maxBytes)}]`;
    }
    return {
      output: `${head.join('\n')}\n\n${text}`,
      ...(isError ? { isError: true } : {}),
      ...(complete ? {} : { truncated: true }),
      metadata,
    };
  } finally {
    response.destroy();
  }
}

function summary(lines: string[], isError: boolean, metadata: Record<string, unknown>): ToolResult {
  return { output: lines.join('\n'), ...(isError ? { isError: true } : {}), metadata };
}

/** Undefined when the bytes look binary (a NUL byte); unknown charsets fall back to UTF-8. */
function decode(bytes: Buffer, charset: string, cut: boolean): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes, { stream: cut });
}
