import { describe, expect, it } from 'vitest';
import { publicOrigin } from './public-origin';

const h = (values: Record<string, string>) => new Headers(values);

describe('the origin the Connect page puts in the settings block', () => {
  it.each([
    [
      'GATEHOUSE_PUBLIC_URL wins over the request',
      h({ host: 'internal:3000' }),
      'https://gate.example.com/',
      'https://gate.example.com',
    ],
    ['the Host header without a proxy', h({ host: '127.0.0.1:3210' }), undefined, 'http://127.0.0.1:3210'],
    [
      "a proxy's forwarded host and proto",
      h({ host: 'app:3000', 'x-forwarded-host': 'gate.io', 'x-forwarded-proto': 'https' }),
      undefined,
      'https://gate.io',
    ],
    [
      'the first of a forwarded list',
      h({ 'x-forwarded-host': 'a.io, b.io', 'x-forwarded-proto': 'https,http' }),
      undefined,
      'https://a.io',
    ],
    ['an odd proto is plain http', h({ host: 'x.io', 'x-forwarded-proto': 'javascript' }), undefined, 'http://x.io'],
    [
      'a Host that is no host falls back to the local default',
      h({ host: 'a b/c' }),
      undefined,
      'http://localhost:3000',
    ],
  ])('%s', (_name, headers, configured, expected) => {
    expect(publicOrigin(headers, configured)).toBe(expected);
  });
});
