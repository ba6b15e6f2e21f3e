// Reading a JSON request body with a size limit and a zod schema: bad input becomes a 4xx with
// field-level messages, never a 500.
import type { z } from 'zod';
import { AppError } from './errors';

export async function readJson<T>(request: Request, schema: z.ZodType<T>, maxBytes: number): Promise<T> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new AppError('payload_too_large', 413, `The request body is larger than ${maxBytes} bytes`);
  const text = await readLimited(request, maxBytes);
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw AppError.badRequest('The request body is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw AppError.fromZod(parsed.error);
  return parsed.data;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
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
      throw new AppError('payload_too_large', 413, `The request body is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
