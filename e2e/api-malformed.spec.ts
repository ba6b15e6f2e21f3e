// Malformed requests on every route of app/api: invalid JSON, JSON of the wrong type, missing and
// mistyped fields, values no database can store, oversized bodies, the wrong Content-Type, bad query
// and path parameters. Each answer is the expected 4xx with a JSON error naming the field (never a
// 500, never a hang), and afterwards the server still serves: health, a chat, a paused run's stream
// with its heartbeats. One row per case, each its own test, named after it.
import { expect, test } from '@playwright/test';
import { SseReader } from './support/sse';

/** The server's body cap: GATEHOUSE_MAX_BODY_BYTES, left at its default by playwright.config.ts. */
const MAX_BODY_BYTES = 1_000_000;
const JSON_TYPE = { 'Content-Type': 'application/json' };
const IF_MATCH = { ...JSON_TYPE, 'If-Match': '"1"' };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Case {
  name: string;
  method: Method;
  /** The path, `{run}` standing for a finished run's id. */
  path: string;
  headers?: Record<string, string>;
  body?: BodyInit | (() => BodyInit);
  status: number;
  /** The error code, when the case pins one. */
  code?: string;
  /** A path in `error.fields` (exactly, or as the end of a longer path), or a pattern for one. */
  field?: string | RegExp;
}

const json = (value: unknown) => JSON.stringify(value);
const say = (content: string, extra: Record<string, unknown> = {}) =>
  json({ messages: [{ role: 'user', content }], ...extra });
const nested = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 'x');
const oversized = () => say('x'.repeat(MAX_BODY_BYTES));
/** An oversized body sent in chunks without a Content-Length, so only the server's reading can stop it. */
const oversizedStream = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.byteLength) controller.enqueue(chunk);
      controller.close();
    },
  });
const cursor = (at: number, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');
const FAR_CURSOR = cursor(9e15, 'x'); // a date JavaScript cannot represent
const ANCIENT_CURSOR = cursor(-8e15, 'x'); // a date PostgreSQL cannot store

/** The body-level cases every JSON route shares: invalid JSON, wrong JSON types, size, Content-Type. */
function bodyCases(
  route: string,
  method: Method,
  path: string,
  headers: Record<string, string>,
  valid: string,
  rootCode = 'bad_request',
): Case[] {
  return [
    {
      name: `${route}: invalid JSON`,
      method,
      path,
      headers,
      body: '{"messages": [',
      status: 400,
      code: 'bad_request',
      field: '',
    },
    { name: `${route}: JSON null`, method, path, headers, body: 'null', status: 400, code: rootCode, field: '' },
    { name: `${route}: a JSON array`, method, path, headers, body: '[]', status: 400, code: rootCode, field: '' },
    { name: `${route}: a JSON string`, method, path, headers, body: '"text"', status: 400, code: rootCode, field: '' },
    {
      name: `${route}: a body over the cap`,
      method,
      path,
      headers,
      body: oversized,
      status: 413,
      code: 'payload_too_large',
      field: '',
    },
    {
      name: `${route}: a body over the cap without Content-Length`,
      method,
      path,
      headers,
      body: oversizedStream,
      status: 413,
      code: 'payload_too_large',
    },
    {
      name: `${route}: JSON sent as text/plain`,
      method,
      path,
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: valid,
      status: 415,
      field: 'Content-Type',
    },
    {
      name: `${route}: a form post`,
      method,
      path,
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'messages=hi',
      status: 415,
      field: 'Content-Type',
    },
    {
      name: `${route}: a body without Content-Type`,
      method,
      path,
      headers: { ...headers, 'Content-Type': '' },
      body: () => new TextEncoder().encode(valid),
      status: 415,
      field: 'Content-Type',
    },
    {
      name: `${route}: a NUL character in a string`,
      method,
      path,
      headers,
      body: valid.replace(/}$/, ',"x":"a\\u0000b"}'),
      status: 400,
      field: 'x',
    },
    {
      name: `${route}: a lone surrogate in a string`,
      method,
      path,
      headers,
      body: valid.replace(/}$/, ',"x":"a\\ud800b"}'),
      status: 400,
      field: 'x',
    },
    {
      name: `${route}: JSON nested 200 levels deep`,
      method,
      path,
      headers,
      body: valid.replace(/}$/, `,"x":${json(nested(200))}}`),
      status: 400,
      field: /^x(\.0)+$/,
    },
  ];
}

const relay = '/api/chat/relay/no-such-relay';
const decision = (response: unknown, sessionId: unknown = 's') => json({ sessionId, response });
const evaluateCall = (call: unknown, extra: Record<string, unknown> = {}) => json({ call, ...extra });
const bash = { tool: 'bash', params: { command: 'ls' } };

const CASES: Case[] = [
  // POST /api/chat
  ...bodyCases('POST /api/chat', 'POST', '/api/chat', JSON_TYPE, say('hello')),
  { name: 'POST /api/chat: no body', method: 'POST', path: '/api/chat', headers: JSON_TYPE, status: 400, field: '' },
  {
    name: 'POST /api/chat: messages missing',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: '{}',
    status: 400,
    field: 'messages',
  },
  {
    name: 'POST /api/chat: messages empty',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: json({ messages: [] }),
    status: 400,
    field: 'messages',
  },
  {
    name: 'POST /api/chat: messages a string',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: json({ messages: 'hello' }),
    status: 400,
    field: 'messages',
  },
  {
    name: 'POST /api/chat: content a number',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: json({ messages: [{ role: 'user', content: 5 }] }),
    status: 400,
    field: 'messages.0.content',
  },
  {
    name: 'POST /api/chat: unknown role',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: json({ messages: [{ role: 'boss', content: 'hi' }] }),
    status: 400,
    field: 'messages.0.role',
  },
  {
    name: 'POST /api/chat: sessionId a number',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { sessionId: 5 }),
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'POST /api/chat: unknown mode',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { mode: 'yolo' }),
    status: 400,
    field: 'mode',
  },
  {
    name: 'POST /api/chat: permissions a string',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { permissions: 'all' }),
    status: 400,
    field: 'permissions',
  },
  {
    name: 'POST /api/chat: permissions with rules a string',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { permissions: { rules: 'all' } }),
    status: 400,
    field: 'rules',
  },
  {
    name: 'POST /api/chat: agent a number',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { agent: 5 }),
    status: 400,
    field: 'agent',
  },
  {
    name: 'POST /api/chat: an unknown agent',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { agent: 'nobody' }),
    status: 400,
    field: 'agent',
  },
  {
    name: 'POST /api/chat: tools a string',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { tools: 'bash' }),
    status: 400,
    field: 'tools',
  },
  {
    name: 'POST /api/chat: model a number',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { model: 5 }),
    status: 400,
    field: 'model',
  },
  {
    name: 'POST /api/chat: an unknown model spec',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { model: 'nope:x' }),
    status: 400,
    field: 'model',
  },
  {
    name: 'POST /api/chat: a NUL character in sessionId',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { sessionId: 'a\u0000b' }),
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'POST /api/chat: a NUL character in a message',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi\u0000'),
    status: 400,
    field: 'messages.0.content',
  },
  {
    name: 'POST /api/chat: a NUL character in a permission rule',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { permissions: { allowlist: [{ tool: 'bash', params: { command: 'ls\u0000' } }] } }),
    status: 400,
    field: 'permissions.allowlist.0.params.command',
  },
  {
    name: 'POST /api/chat: a lone surrogate in a message',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi\ud800'),
    status: 400,
    field: 'messages.0.content',
  },
  {
    name: 'POST /api/chat: a lone surrogate in a permission rule',
    method: 'POST',
    path: '/api/chat',
    headers: JSON_TYPE,
    body: say('hi', { permissions: { allowlist: [{ tool: 'bash', params: { command: 'ls \udc00' } }] } }),
    status: 400,
    field: 'permissions.allowlist.0.params.command',
  },

  // POST /api/chat/relay/:relayId
  ...bodyCases('POST /api/chat/relay/:id', 'POST', relay, JSON_TYPE, decision({ approved: true })),
  {
    name: 'POST /api/chat/relay/:id: sessionId missing',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: json({ response: { approved: true } }),
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'POST /api/chat/relay/:id: response missing',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: json({ sessionId: 's' }),
    status: 400,
    field: 'response',
  },
  {
    name: 'POST /api/chat/relay/:id: approved a string',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: 'yes' }),
    status: 400,
    field: 'response.approved',
  },
  {
    name: 'POST /api/chat/relay/:id: unknown scope',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: true, always: true, scope: 'world' }),
    status: 400,
    field: 'response.scope',
  },
  {
    name: 'POST /api/chat/relay/:id: reason too long',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: false, reason: 'r'.repeat(2001) }),
    status: 400,
    field: 'response.reason',
  },
  {
    name: 'POST /api/chat/relay/:id: a lone surrogate in the reason',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: false, reason: 'no \ud800' }),
    status: 400,
    field: 'response.reason',
  },
  {
    name: 'POST /api/chat/relay/:id: an invalid rule',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: true, always: true, rule: { action: 'maybe', tool: 'x' } }),
    status: 400,
    field: /^response\.rule/,
  },
  {
    name: 'POST /api/chat/relay/:id: sessionId a number',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: true }, 5),
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'POST /api/chat/relay/:id: a NUL character in the relay id',
    method: 'POST',
    path: '/api/chat/relay/a%00b',
    headers: JSON_TYPE,
    body: decision({ approved: true }),
    status: 400,
    field: 'relayId',
  },
  {
    name: 'POST /api/chat/relay/:id: an unknown relay',
    method: 'POST',
    path: relay,
    headers: JSON_TYPE,
    body: decision({ approved: true }),
    status: 404,
    code: 'not_found:relay',
  },

  // GET /api/runs, GET /api/runs/:id, GET /api/runs/:id/events, POST /api/runs/:id/cancel
  {
    name: 'GET /api/runs: unknown status',
    method: 'GET',
    path: '/api/runs?status=sleeping',
    status: 400,
    field: 'status',
  },
  { name: 'GET /api/runs: limit 0', method: 'GET', path: '/api/runs?limit=0', status: 400, field: 'limit' },
  {
    name: 'GET /api/runs: limit not a number',
    method: 'GET',
    path: '/api/runs?limit=ten',
    status: 400,
    field: 'limit',
  },
  { name: 'GET /api/runs: limit over 200', method: 'GET', path: '/api/runs?limit=201', status: 400, field: 'limit' },
  {
    name: 'GET /api/runs: empty sessionId',
    method: 'GET',
    path: '/api/runs?sessionId=',
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'GET /api/runs: a NUL character in sessionId',
    method: 'GET',
    path: '/api/runs?sessionId=a%00b',
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'GET /api/runs: a garbage cursor',
    method: 'GET',
    path: '/api/runs?cursor=garbage',
    status: 400,
    field: 'cursor',
  },
  {
    name: 'GET /api/runs: a cursor past the last representable date',
    method: 'GET',
    path: `/api/runs?cursor=${FAR_CURSOR}`,
    status: 400,
    field: 'cursor',
  },
  {
    name: 'GET /api/runs: a cursor before the first storable date',
    method: 'GET',
    path: `/api/runs?cursor=${ANCIENT_CURSOR}`,
    status: 400,
    field: 'cursor',
  },
  { name: 'GET /api/sessions: limit 0', method: 'GET', path: '/api/sessions?limit=0', status: 400, field: 'limit' },
  {
    name: 'GET /api/sessions: limit not a number',
    method: 'GET',
    path: '/api/sessions?limit=ten',
    status: 400,
    field: 'limit',
  },
  { name: 'GET /api/sessions: empty user', method: 'GET', path: '/api/sessions?user=', status: 400, field: 'user' },
  {
    name: 'GET /api/sessions: a garbage cursor',
    method: 'GET',
    path: '/api/sessions?cursor=garbage',
    status: 400,
    field: 'cursor',
  },
  {
    name: 'GET /api/sessions: a cursor past the last representable date',
    method: 'GET',
    path: `/api/sessions?cursor=${FAR_CURSOR}`,
    status: 400,
    field: 'cursor',
  },
  {
    name: 'GET /api/sessions: a cursor before the first storable date',
    method: 'GET',
    path: `/api/sessions?cursor=${ANCIENT_CURSOR}`,
    status: 400,
    field: 'cursor',
  },
  {
    name: 'GET /api/sessions/:id: an unknown session',
    method: 'GET',
    path: '/api/sessions/no-such-session',
    status: 404,
    code: 'not_found:session',
  },
  {
    name: 'GET /api/sessions/:id: a NUL character in the id',
    method: 'GET',
    path: '/api/sessions/a%00b',
    status: 400,
    field: 'id',
  },
  {
    name: 'GET /api/runs/:id: an unknown run',
    method: 'GET',
    path: '/api/runs/no-such-run',
    status: 404,
    code: 'not_found:run',
  },
  {
    name: 'GET /api/runs/:id: a NUL character in the id',
    method: 'GET',
    path: '/api/runs/a%00b',
    status: 400,
    field: 'id',
  },
  {
    name: 'GET /api/runs/:id/events: an unknown run',
    method: 'GET',
    path: '/api/runs/no-such-run/events',
    status: 404,
    code: 'not_found:run',
  },
  {
    name: 'GET /api/runs/:id/events: a NUL character in the id',
    method: 'GET',
    path: '/api/runs/a%00b/events',
    status: 400,
    field: 'id',
  },
  {
    name: 'GET /api/runs/:id/events: after not a number',
    method: 'GET',
    path: '/api/runs/{run}/events?after=abc',
    status: 400,
    field: 'after',
  },
  {
    name: 'GET /api/runs/:id/events: after negative',
    method: 'GET',
    path: '/api/runs/{run}/events?after=-1',
    status: 400,
    field: 'after',
  },
  {
    name: 'GET /api/runs/:id/events: after a fraction',
    method: 'GET',
    path: '/api/runs/{run}/events?after=1.5',
    status: 400,
    field: 'after',
  },
  {
    name: 'GET /api/runs/:id/events: after beyond any sequence number',
    method: 'GET',
    path: '/api/runs/{run}/events?after=99999999999',
    status: 400,
    field: 'after',
  },
  {
    name: 'GET /api/runs/:id/events: Last-Event-ID not a number',
    method: 'GET',
    path: '/api/runs/{run}/events',
    headers: { 'Last-Event-ID': 'latest' },
    status: 400,
    field: 'Last-Event-ID',
  },
  {
    name: 'GET /api/runs/:id/events: Last-Event-ID negative',
    method: 'GET',
    path: '/api/runs/{run}/events',
    headers: { 'Last-Event-ID': '-3' },
    status: 400,
    field: 'Last-Event-ID',
  },
  {
    name: 'GET /api/runs/:id/events: Last-Event-ID beyond any sequence number',
    method: 'GET',
    path: '/api/runs/{run}/events',
    headers: { 'Last-Event-ID': '4294967296' },
    status: 400,
    field: 'Last-Event-ID',
  },
  {
    name: 'POST /api/runs/:id/cancel: an unknown run',
    method: 'POST',
    path: '/api/runs/no-such-run/cancel',
    status: 404,
    code: 'not_found:run',
  },
  {
    name: 'POST /api/runs/:id/cancel: a NUL character in the id',
    method: 'POST',
    path: '/api/runs/a%00b/cancel',
    status: 400,
    field: 'id',
  },

  // POST /api/runs/:id/mode
  ...bodyCases('POST /api/runs/:id/mode', 'POST', '/api/runs/{run}/mode', JSON_TYPE, json({ mode: 'plan' })),
  {
    name: 'POST /api/runs/:id/mode: mode missing',
    method: 'POST',
    path: '/api/runs/{run}/mode',
    headers: JSON_TYPE,
    body: '{}',
    status: 400,
    field: 'mode',
  },
  {
    name: 'POST /api/runs/:id/mode: an unknown mode',
    method: 'POST',
    path: '/api/runs/{run}/mode',
    headers: JSON_TYPE,
    body: json({ mode: 'yolo' }),
    status: 400,
    field: 'mode',
  },
  {
    name: 'POST /api/runs/:id/mode: approvePending with a mode other than Auto-approve',
    method: 'POST',
    path: '/api/runs/{run}/mode',
    headers: JSON_TYPE,
    body: json({ mode: 'plan', approvePending: true }),
    status: 400,
    field: 'approvePending',
  },
  {
    name: 'POST /api/chat/relay/:relayId/check: rule missing',
    method: 'POST',
    path: '/api/chat/relay/no-such-relay/check',
    headers: JSON_TYPE,
    body: json({ sessionId: 's' }),
    status: 400,
    field: 'rule',
  },
  {
    name: 'POST /api/chat/relay/:relayId/check: an unknown relay',
    method: 'POST',
    path: '/api/chat/relay/no-such-relay/check',
    headers: JSON_TYPE,
    body: json({ sessionId: 's', rule: [{ action: 'allow', tool: 'bash' }] }),
    status: 404,
    code: 'not_found:relay',
  },
  {
    name: 'POST /api/runs/:id/mode: an unknown run',
    method: 'POST',
    path: '/api/runs/no-such-run/mode',
    headers: JSON_TYPE,
    body: json({ mode: 'plan' }),
    status: 404,
    code: 'not_found:run',
  },
  {
    name: 'POST /api/runs/:id/mode: a NUL character in the id',
    method: 'POST',
    path: '/api/runs/a%00b/mode',
    headers: JSON_TYPE,
    body: json({ mode: 'plan' }),
    status: 400,
    field: 'id',
  },
  {
    name: 'POST /api/runs/:id/mode: a finished run',
    method: 'POST',
    path: '/api/runs/{run}/mode',
    headers: JSON_TYPE,
    body: json({ mode: 'plan' }),
    status: 409,
    code: 'conflict:run_finished',
  },

  // GET and PUT /api/policy, GET /api/policy/versions
  {
    name: 'PUT /api/policy: If-Match missing',
    method: 'PUT',
    path: '/api/policy',
    headers: JSON_TYPE,
    body: json({ policy: { rules: [] } }),
    status: 428,
    field: 'If-Match',
  },
  {
    name: 'PUT /api/policy: If-Match not a version',
    method: 'PUT',
    path: '/api/policy',
    headers: { ...JSON_TYPE, 'If-Match': '"latest"' },
    body: json({ policy: { rules: [] } }),
    status: 400,
    field: 'If-Match',
  },
  ...bodyCases('PUT /api/policy', 'PUT', '/api/policy', IF_MATCH, json({ policy: { rules: [] } })),
  { name: 'PUT /api/policy: no body', method: 'PUT', path: '/api/policy', headers: IF_MATCH, status: 400, field: '' },
  {
    name: 'PUT /api/policy: note a number',
    method: 'PUT',
    path: '/api/policy',
    headers: IF_MATCH,
    body: json({ policy: { rules: [] }, note: 5 }),
    status: 400,
    field: 'note',
  },
  {
    name: 'PUT /api/policy: rules a string',
    method: 'PUT',
    path: '/api/policy',
    headers: IF_MATCH,
    body: json({ policy: { rules: 'none' } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules',
  },
  {
    name: 'PUT /api/policy: a rule without a tool',
    method: 'PUT',
    path: '/api/policy',
    headers: IF_MATCH,
    body: json({ policy: { rules: [{ action: 'deny' }] } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules.0.tool',
  },
  {
    name: 'PUT /api/policy: unknown defaultAction',
    method: 'PUT',
    path: '/api/policy',
    headers: IF_MATCH,
    body: json({ policy: { defaultAction: 'shrug', rules: [] } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'defaultAction',
  },
  { name: 'DELETE /api/policy: not a method of the route', method: 'DELETE', path: '/api/policy', status: 405 },
  {
    name: 'GET /api/policy/versions: limit 0',
    method: 'GET',
    path: '/api/policy/versions?limit=0',
    status: 400,
    field: 'limit',
  },
  {
    name: 'GET /api/policy/versions: limit not a number',
    method: 'GET',
    path: '/api/policy/versions?limit=all',
    status: 400,
    field: 'limit',
  },
  {
    name: 'GET /api/policy/versions: before 0',
    method: 'GET',
    path: '/api/policy/versions?before=0',
    status: 400,
    field: 'before',
  },
  {
    name: 'GET /api/policy/versions: before beyond any version',
    method: 'GET',
    path: '/api/policy/versions?before=99999999999',
    status: 400,
    field: 'before',
  },

  // POST /api/policy/tests
  ...bodyCases('POST /api/policy/tests', 'POST', '/api/policy/tests', JSON_TYPE, json({ policy: { rules: [] } })),
  {
    name: 'POST /api/policy/tests: policy missing',
    method: 'POST',
    path: '/api/policy/tests',
    headers: JSON_TYPE,
    body: '{}',
    status: 400,
    field: 'policy',
  },
  {
    name: 'POST /api/policy/tests: a test without expect',
    method: 'POST',
    path: '/api/policy/tests',
    headers: JSON_TYPE,
    body: json({ policy: { rules: [], tests: [{ call: { tool: 'bash', params: {} } }] } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'tests.0.expect',
  },
  {
    name: 'PUT /api/policy: too many tests',
    method: 'PUT',
    path: '/api/policy',
    headers: IF_MATCH,
    body: json({
      policy: {
        rules: [],
        tests: Array.from({ length: 101 }, () => ({ call: { tool: 'x', params: {} }, expect: 'ask' })),
      },
    }),
    status: 400,
    code: 'bad_request:policy',
    field: 'tests',
  },
  // The shadow policy (PUT/DELETE /api/policy/shadow, GET .../diffs, POST .../promote)
  ...bodyCases('PUT /api/policy/shadow', 'PUT', '/api/policy/shadow', JSON_TYPE, json({ policy: { rules: [] } })),
  {
    name: 'PUT /api/policy/shadow: note a number',
    method: 'PUT',
    path: '/api/policy/shadow',
    headers: JSON_TYPE,
    body: json({ policy: { rules: [] }, note: 5 }),
    status: 400,
    field: 'note',
  },
  {
    name: 'PUT /api/policy/shadow: rules a string',
    method: 'PUT',
    path: '/api/policy/shadow',
    headers: JSON_TYPE,
    body: json({ policy: { rules: 'none' } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules',
  },
  {
    name: 'PUT /api/policy/shadow: a rule without a tool',
    method: 'PUT',
    path: '/api/policy/shadow',
    headers: JSON_TYPE,
    body: json({ policy: { rules: [{ action: 'deny' }] } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules.0.tool',
  },
  {
    name: 'DELETE /api/policy/shadow: an empty id',
    method: 'DELETE',
    path: '/api/policy/shadow?id=',
    status: 400,
    field: 'id',
  },
  {
    name: 'GET /api/policy/shadow/diffs: limit 0',
    method: 'GET',
    path: '/api/policy/shadow/diffs?limit=0',
    status: 400,
    field: 'limit',
  },
  {
    name: 'GET /api/policy/shadow/diffs: examples not a number',
    method: 'GET',
    path: '/api/policy/shadow/diffs?examples=all',
    status: 400,
    field: 'examples',
  },
  {
    name: 'POST /api/policy/shadow/promote: If-Match missing',
    method: 'POST',
    path: '/api/policy/shadow/promote',
    status: 428,
    field: 'If-Match',
  },
  {
    name: 'POST /api/policy/shadow/promote: If-Match not a version',
    method: 'POST',
    path: '/api/policy/shadow/promote',
    headers: { 'If-Match': '"latest"' },
    status: 400,
    field: 'If-Match',
  },

  // POST /api/policy/evaluate
  ...bodyCases('POST /api/policy/evaluate', 'POST', '/api/policy/evaluate', JSON_TYPE, evaluateCall(bash)),
  {
    name: 'POST /api/policy/evaluate: call missing',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: '{}',
    status: 400,
    field: 'call',
  },
  {
    name: 'POST /api/policy/evaluate: call a string',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: evaluateCall('bash ls'),
    status: 400,
    field: 'call',
  },
  {
    name: 'POST /api/policy/evaluate: tool missing',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: evaluateCall({ params: {} }),
    status: 400,
    field: 'call.tool',
  },
  {
    name: 'POST /api/policy/evaluate: params a string',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: evaluateCall({ tool: 'bash', params: 'ls' }),
    status: 400,
    field: 'call.params',
  },
  {
    name: 'POST /api/policy/evaluate: unknown mode',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: evaluateCall(bash, { mode: 'yolo' }),
    status: 400,
    field: 'mode',
  },
  {
    name: 'POST /api/policy/evaluate: a draft policy with rules a string',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: evaluateCall(bash, { policy: { rules: 'none' } }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules',
  },
  {
    name: 'POST /api/policy/evaluate: a draft policy that is null',
    method: 'POST',
    path: '/api/policy/evaluate',
    headers: JSON_TYPE,
    body: evaluateCall(bash, { policy: null }),
    status: 400,
    code: 'bad_request:policy',
    field: '',
  },

  // POST /api/policy/import
  ...bodyCases(
    'POST /api/policy/import',
    'POST',
    '/api/policy/import?dryRun=1',
    JSON_TYPE,
    json({ rules: [] }),
    'bad_request:policy',
  ),
  {
    name: 'POST /api/policy/import: If-Match missing when saving',
    method: 'POST',
    path: '/api/policy/import',
    headers: JSON_TYPE,
    body: json({ rules: [] }),
    status: 428,
    field: 'If-Match',
  },
  {
    name: 'POST /api/policy/import: rules a string',
    method: 'POST',
    path: '/api/policy/import?dryRun=1',
    headers: JSON_TYPE,
    body: json({ rules: 'none' }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules',
  },
  {
    name: 'POST /api/policy/import: an unknown action',
    method: 'POST',
    path: '/api/policy/import?dryRun=1',
    headers: JSON_TYPE,
    body: json({ rules: [{ tool: 'x', action: 'nope' }] }),
    status: 400,
    code: 'bad_request:policy',
    field: 'rules.0.action',
  },
  {
    name: 'POST /api/policy/import: allowlist a string',
    method: 'POST',
    path: '/api/policy/import?dryRun=1',
    headers: JSON_TYPE,
    body: json({ allowlist: 'bash' }),
    status: 400,
    code: 'bad_request:policy',
    field: 'allowlist',
  },

  // GET /api/grants, DELETE /api/grants/:id
  {
    name: 'GET /api/grants: empty sessionId',
    method: 'GET',
    path: '/api/grants?sessionId=',
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'GET /api/grants: a NUL character in sessionId',
    method: 'GET',
    path: '/api/grants?sessionId=%00',
    status: 400,
    field: 'sessionId',
  },
  {
    name: 'DELETE /api/grants/:id: an unknown grant',
    method: 'DELETE',
    path: '/api/grants/no-such-grant',
    status: 404,
    code: 'not_found:grant',
  },
  {
    name: 'DELETE /api/grants/:id: a NUL character in the id',
    method: 'DELETE',
    path: '/api/grants/a%00b',
    status: 400,
    field: 'id',
  },

  // GET /api/audit
  {
    name: 'GET /api/audit: unknown action',
    method: 'GET',
    path: '/api/audit?action=maybe',
    status: 400,
    field: 'action',
  },
  { name: 'GET /api/audit: limit 0', method: 'GET', path: '/api/audit?limit=0', status: 400, field: 'limit' },
  {
    name: 'GET /api/audit: limit not a number',
    method: 'GET',
    path: '/api/audit?limit=many',
    status: 400,
    field: 'limit',
  },
  {
    name: 'GET /api/audit: from not a date',
    method: 'GET',
    path: '/api/audit?from=yesterday',
    status: 400,
    field: 'from',
  },
  { name: 'GET /api/audit: to not a date', method: 'GET', path: '/api/audit?to=2025-13-45', status: 400, field: 'to' },
  {
    name: 'GET /api/audit: from before the first storable date',
    method: 'GET',
    path: '/api/audit?from=-271821-04-20',
    status: 400,
    field: 'from',
  },
  { name: 'GET /api/audit: empty tool', method: 'GET', path: '/api/audit?tool=', status: 400, field: 'tool' },
  {
    name: 'GET /api/audit: a NUL character in tool',
    method: 'GET',
    path: '/api/audit?tool=ba%00sh',
    status: 400,
    field: 'tool',
  },
  {
    name: 'GET /api/audit: a garbage cursor',
    method: 'GET',
    path: '/api/audit?cursor=garbage',
    status: 400,
    field: 'cursor',
  },
  {
    name: 'GET /api/audit: a cursor past the last representable date',
    method: 'GET',
    path: `/api/audit?cursor=${FAR_CURSOR}`,
    status: 400,
    field: 'cursor',
  },

  // Access control: sign-in, users, tokens (bad input is refused before any password is checked,
  // so none of these count against the login throttle).
  ...bodyCases(
    'POST /api/auth/login',
    'POST',
    '/api/auth/login',
    JSON_TYPE,
    json({ username: 'malformed', password: 'x' }),
  ),
  {
    name: 'POST /api/auth/login: username missing',
    method: 'POST',
    path: '/api/auth/login',
    headers: JSON_TYPE,
    body: json({ password: 'x' }),
    status: 400,
    field: 'username',
  },
  {
    name: 'POST /api/auth/login: password a number',
    method: 'POST',
    path: '/api/auth/login',
    headers: JSON_TYPE,
    body: json({ username: 'a', password: 5 }),
    status: 400,
    field: 'password',
  },
  {
    name: 'POST /api/auth/login-token: token missing',
    method: 'POST',
    path: '/api/auth/login-token',
    headers: JSON_TYPE,
    body: '{}',
    status: 400,
    field: 'token',
  },
  ...bodyCases('POST /api/users', 'POST', '/api/users', JSON_TYPE, json({ username: 'malformed-user', role: 'user' })),
  {
    name: 'POST /api/users: an unknown role',
    method: 'POST',
    path: '/api/users',
    headers: JSON_TYPE,
    body: json({ username: 'malformed-user', role: 'king' }),
    status: 400,
    field: 'role',
  },
  {
    name: 'POST /api/users: username a number',
    method: 'POST',
    path: '/api/users',
    headers: JSON_TYPE,
    body: json({ username: 5 }),
    status: 400,
    field: 'username',
  },
  {
    name: 'PATCH /api/users/:id: an unknown role',
    method: 'PATCH',
    path: '/api/users/no-such-user',
    headers: JSON_TYPE,
    body: json({ role: 'king' }),
    status: 400,
    field: 'role',
  },
  {
    name: 'PATCH /api/users/:id: disabled a string',
    method: 'PATCH',
    path: '/api/users/no-such-user',
    headers: JSON_TYPE,
    body: json({ disabled: 'yes' }),
    status: 400,
    field: 'disabled',
  },
  {
    name: 'POST /api/users/:id/password: password a number',
    method: 'POST',
    path: '/api/users/no-such-user/password',
    headers: JSON_TYPE,
    body: json({ password: 12345 }),
    status: 400,
    field: 'password',
  },
  ...bodyCases('POST /api/tokens', 'POST', '/api/tokens', JSON_TYPE, json({ name: 'malformed' })),
  {
    name: 'POST /api/tokens: name missing',
    method: 'POST',
    path: '/api/tokens',
    headers: JSON_TYPE,
    body: '{}',
    status: 400,
    field: 'name',
  },
  {
    name: 'POST /api/tokens: expiresInDays 0',
    method: 'POST',
    path: '/api/tokens',
    headers: JSON_TYPE,
    body: json({ name: 'x', expiresInDays: 0 }),
    status: 400,
    field: 'expiresInDays',
  },
  {
    name: 'DELETE /api/tokens/:id: an unknown token',
    method: 'DELETE',
    path: '/api/tokens/no-such-token',
    status: 404,
    code: 'not_found:token',
  },

  // A path that is not valid percent-encoding names nothing (scripts/malformed-path.mjs).
  {
    name: 'GET /api/runs/:id: an id that is not valid percent-encoding',
    method: 'GET',
    path: '/api/runs/%zz',
    status: 400,
    code: 'bad_request',
    field: 'path',
  },
  {
    name: 'POST /api/chat/relay/:relayId: an id with a cut UTF-8 escape',
    method: 'POST',
    path: '/api/chat/relay/%E0%A4%A',
    headers: JSON_TYPE,
    body: json({ sessionId: 's', response: { approved: true } }),
    status: 400,
    code: 'bad_request',
    field: 'path',
  },
  {
    name: 'DELETE /api/grants/:id: an id with a lone %',
    method: 'DELETE',
    path: '/api/grants/a%',
    status: 400,
    code: 'bad_request',
    field: 'path',
  },

  // GET /api/health and GET /api/agents take no input; other methods are not routes.
  {
    name: 'POST /api/health: not a method of the route',
    method: 'POST',
    path: '/api/health',
    headers: JSON_TYPE,
    body: '{}',
    status: 405,
  },
  {
    name: 'PUT /api/agents: not a method of the route',
    method: 'PUT',
    path: '/api/agents',
    headers: JSON_TYPE,
    body: '{}',
    status: 405,
  },
];

let finishedRun = '';

// The specs call the API with fetch, to send bytes exactly as written; the project's extra headers
// (credentials, say) go along as they do with Playwright's own request fixture.
test.beforeAll(async ({ baseURL, extraHTTPHeaders }) => {
  // A finished run, for the event-log cases that need a run that exists.
  const { events } = await SseReader.open(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { ...extraHTTPHeaders, ...JSON_TYPE },
    body: say('hello'),
  });
  finishedRun = String((await events.until('connected')).data.runId);
  await events.until('done');
});

for (const c of CASES) {
  test(c.name, async ({ baseURL, extraHTTPHeaders }) => {
    const body = typeof c.body === 'function' ? c.body() : c.body;
    // One connection per case: a 413 answered before a streamed body was sent in full leaves
    // that connection unusable, and fetch would otherwise reuse it for the next case (ECONNRESET).
    const headers = Object.fromEntries(
      Object.entries({ ...extraHTTPHeaders, Connection: 'close', ...c.headers }).filter(([, value]) => value !== ''),
    );
    const response = await fetch(`${baseURL}${c.path.replace('{run}', finishedRun)}`, {
      method: c.method,
      headers,
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      // A hang is a failure too.
      signal: AbortSignal.timeout(10_000),
    } as RequestInit);
    const text = await response.text();
    expect(response.status, text).toBe(c.status);
    if (c.status === 405) return; // Next's own answer for a method the route does not export
    expect(response.headers.get('content-type')).toContain('application/json');
    const { error } = JSON.parse(text) as {
      error: { code: string; message: string; fields?: { path: string; message: string }[] };
    };
    expect(error.message).toBeTruthy();
    if (c.code) expect(error.code).toBe(c.code);
    if (c.field !== undefined) {
      const field = c.field;
      const matches = (path: string) =>
        typeof field === 'string' ? path === field || path.endsWith(`.${field}`) : field.test(path);
      expect(error.fields, text).toEqual(
        expect.arrayContaining([expect.objectContaining({ message: expect.any(String) })]),
      );
      expect(
        error.fields!.some((f) => matches(f.path) && f.message.length > 0),
        `a field ${String(field)} in ${text}`,
      ).toBe(true);
    }
  });
}

test('after all of it the server still serves: health, a chat, and the heartbeats of a paused run', async ({
  baseURL,
  extraHTTPHeaders,
  request,
}) => {
  expect((await request.get('/api/health')).status()).toBe(200);
  expect((await request.get('/api/policy')).status()).toBe(200);
  // Routes without input ignore a query they do not know.
  expect((await request.get('/api/agents?junk=%00')).status()).toBe(200);

  const chat = await SseReader.open(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { ...extraHTTPHeaders, ...JSON_TYPE },
    body: say('$ echo still-serving'),
  });
  const { runId, sessionId } = (await chat.events.until('connected')).data as { runId: string; sessionId: string };
  const relayId = ((await chat.events.until('relay')).data as { id: string }).id;
  // The run waits for a human; its stream stays open and carries heartbeats (every second here:
  // GATEHOUSE_SSE_HEARTBEAT_MS in playwright.config.ts), on the live stream and on a follower's.
  await chat.events.untilComment('heartbeat');
  const follower = await SseReader.open(`${baseURL}/api/runs/${runId}/events`, {
    headers: { ...extraHTTPHeaders, 'Last-Event-ID': '0' },
  });
  await follower.events.untilComment('heartbeat');
  await follower.events.cancel();

  expect(
    (await request.post(`/api/chat/relay/${relayId}`, { data: { sessionId, response: { approved: true } } })).status(),
  ).toBe(200);
  const rest = await chat.events.rest();
  expect(rest.find((e) => e.event === 'tool_result')?.data).toMatchObject({ output: 'still-serving\n' });
  expect(rest.at(-1)?.event).toBe('done');
});
