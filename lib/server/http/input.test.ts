import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJson } from './body';
import { CursorParam, findUnstorable, StorableDate } from './input';

const deep = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 'x');
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('findUnstorable', () => {
  it.each([
    ['a plain document', { a: [1, 'two', { three: null }] }, undefined],
    ['a NUL in a nested string', { a: [{ b: 'x\u0000' }] }, { path: 'a.0.b', message: expect.stringContaining('NUL') }],
    ['a NUL in a key', { a: { 'k\u0000': 1 } }, { path: 'a.k\\u0000', message: expect.stringContaining('NUL') }],
    ['a NUL at the top', 'x\u0000', { path: '', message: expect.stringContaining('NUL') }],
    [
      'a lone high surrogate in a string',
      { a: ['ok', 'x\ud800y'] },
      { path: 'a.1', message: expect.stringContaining('lone surrogate') },
    ],
    [
      'a lone low surrogate at the end',
      { a: 'x\udc00' },
      { path: 'a', message: expect.stringContaining('lone surrogate') },
    ],
    [
      'two high surrogates in a row',
      { a: '\ud800\ud800\udc00' },
      { path: 'a', message: expect.stringContaining('lone surrogate') },
    ],
    [
      'a lone surrogate in a key',
      { a: { 'k\ud800': 1 } },
      { path: 'a.k\\ud800', message: expect.stringContaining('lone surrogate') },
    ],
    ['a surrogate pair (an emoji)', { a: 'ok \ud83d\ude00', '\ud83d\ude00': 'key' }, undefined],
    ['64 levels of nesting', deep(64), undefined],
    ['65 levels of nesting', deep(65), { path: Array(64).fill('0').join('.'), message: 'nests deeper than 64 levels' }],
  ])('%s', (_name, value, expected) => {
    expect(findUnstorable(value)).toEqual(expected);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(findUnstorable(deep(100_000))?.message).toBe('nests deeper than 64 levels');
  });
});

describe('query values', () => {
  it.each([
    ['2025-01-31', true],
    ['2025-01-31T12:00:00Z', true],
    ['yesterday', false],
    ['-271821-04-20', false],
    ['+275760-09-13', false],
  ])('StorableDate %s: %s', (value, ok) => {
    expect(StorableDate.safeParse(value).success).toBe(ok);
  });

  it.each([
    ['a cursor as the API hands them out', cursor([Date.UTC(2025, 0, 1), 'run-1']), true],
    ['garbage', 'garbage', false],
    ['a date JavaScript cannot represent', cursor([9e15, 'x']), false],
    ['a date PostgreSQL cannot store', cursor([-8e15, 'x']), false],
    ['the wrong shape', cursor({ at: 1, id: 'x' }), false],
  ])('CursorParam, %s', (_name, value, ok) => {
    expect(CursorParam.safeParse(value).success).toBe(ok);
  });
});

describe('readJson', () => {
  const schema = z.object({ name: z.string() });
  const post = (body: BodyInit | undefined, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    new Request('http://x/api', {
      method: 'POST',
      body,
      headers,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  const failure = async (request: Request, maxBytes = 100) => {
    const error = await readJson(request, schema, maxBytes).then(
      () => undefined,
      (e: unknown) => e as { status: number; code: string; details?: { fields?: { path: string }[] } },
    );
    return error && { status: error.status, code: error.code, paths: error.details?.fields?.map((f) => f.path) };
  };

  it.each([
    ['valid JSON', post('{"name":"a"}'), undefined],
    [
      'JSON with a charset and a +json type',
      post('{"name":"a"}', { 'Content-Type': 'application/merge-patch+json; charset=utf-8' }),
      undefined,
    ],
    ['invalid JSON', post('{"name":'), { status: 400, code: 'bad_request', paths: [''] }],
    ['a wrong type', post('{"name":5}'), { status: 400, code: 'bad_request', paths: ['name'] }],
    ['JSON null', post('null'), { status: 400, code: 'bad_request', paths: [''] }],
    ['a NUL character', post('{"name":"a\\u0000"}'), { status: 400, code: 'bad_request', paths: ['name'] }],
    ['a lone surrogate', post('{"name":"a\\ud800"}'), { status: 400, code: 'bad_request', paths: ['name'] }],
    [
      'text/plain',
      post('{"name":"a"}', { 'Content-Type': 'text/plain' }),
      { status: 415, code: 'unsupported_media_type', paths: ['Content-Type'] },
    ],
    [
      'no Content-Type',
      post(new TextEncoder().encode('{"name":"a"}'), {}),
      { status: 415, code: 'unsupported_media_type', paths: ['Content-Type'] },
    ],
    [
      'a declared length over the cap',
      post(`{"name":"${'x'.repeat(200)}"}`),
      { status: 413, code: 'payload_too_large', paths: [''] },
    ],
    [
      'a streamed body over the cap',
      post(
        new ReadableStream({
          start: (c) => (c.enqueue(new TextEncoder().encode(`{"name":"${'x'.repeat(200)}"}`)), c.close()),
        }),
      ),
      { status: 413, code: 'payload_too_large', paths: [''] },
    ],
  ])('%s', async (_name, request, expected) => {
    expect(await failure(request)).toEqual(expected);
  });
});
