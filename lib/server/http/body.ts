// Reading a JSON request body with a size limit and a zod schema: bad input becomes a 4xx with
// field-level messages, never a 500. A body must be declared as JSON: besides being honest, that
// keeps cross-site form posts (text/plain, urlencoded, multipart need no CORS preflight) out.
import type { z } from 'zod';
import { AppError } from './errors';
import { assertStorable } from './input';
import { hasDirectBody, type RouteRequest } from './route-request';

export async function readJson<T>(request: RouteRequest, schema: z.ZodType<T>, maxBytes: number): Promise<T> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(request, maxBytes);
  if (text !== '' && !isJsonType(request.headers.get('content-type'))) {
    throw new AppError(
      'unsupported_media_type',
      415,
      'Send the request body as JSON (Content-Type: application/json)',
      {
        fields: [
          {
            path: 'Content-Type',
            message: `must be application/json, got ${request.headers.get('content-type') ?? 'none'}`,
          },
        ],
      },
    );
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    throw AppError.badRequest('The request body is not valid JSON', [{ path: '', message: (error as Error).message }]);
  }
  assertStorable(json);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw AppError.fromZod(parsed.error);
  return parsed.data;
}

/** `application/json`, `application/<x>+json`, with or without parameters such as charset. */
function isJsonType(contentType: string | null): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', 413, `The request body is larger than ${maxBytes} bytes`, {
    fields: [{ path: '', message: `must be at most ${maxBytes} bytes (GATEHOUSE_MAX_BODY_BYTES)` }],
  });
}

async function readLimited(request: RouteRequest, maxBytes: number): Promise<string> {
  if (hasDirectBody(request)) {
    const body = await request.readBody(maxBytes);
    if (body === 'too_large') throw tooLarge(maxBytes);
    return new TextDecoder().decode(body);
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
