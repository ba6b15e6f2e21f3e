// A JSON Response made by jsonResponse reads the same through either server: Next reads its stream,
// the fast path writes the text it was made with; a Response made any other way has no known text.
import { describe, expect, it } from 'vitest';
import { jsonResponse, knownBody } from './known-body';

describe('jsonResponse', () => {
  it('is the same JSON read as a stream and as the known text, with its status and headers', async () => {
    const response = jsonResponse({ ok: true, n: 1 }, { status: 201, headers: { 'x-a': 'b' } });
    expect(knownBody(response)).toBe('{"ok":true,"n":1}');
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-a')).toBe('b');
    expect(await response.json()).toEqual({ ok: true, n: 1 });
  });

  it('keeps a content type given to it', () => {
    const response = jsonResponse({}, { headers: { 'content-type': 'application/problem+json' } });
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it("for the fast path's request (a direct body): no body to make, the text kept for the fast path to write", () => {
    const fastPathRequest = { readBody: async () => Buffer.alloc(0) } as unknown as Parameters<typeof jsonResponse>[2];
    const response = jsonResponse({ a: 1 }, { status: 202 }, fastPathRequest);
    expect(response.body).toBeNull();
    expect(response.status).toBe(202);
    expect(knownBody(response)).toBe('{"a":1}');
    // A Web Request (Next's) gets a body as ever.
    const next = jsonResponse({ a: 1 }, {}, new Request('http://localhost/x'));
    expect(next.body).not.toBeNull();
  });

  it('knows nothing of a Response made otherwise, even one wrapping its body', () => {
    const made = jsonResponse({ a: 1 });
    expect(knownBody(Response.json({ a: 1 }))).toBeUndefined();
    expect(knownBody(new Response(made.body, { headers: made.headers }))).toBeUndefined();
  });
});
