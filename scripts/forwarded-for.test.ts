import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientIp } from '../lib/auth/rate-limit';
import { appendForwardedFor } from './forwarded-for.mjs';

const request = (remoteAddress: string | undefined, forwarded?: string | string[]) =>
  ({
    socket: { remoteAddress },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

/** What the login limits see after the server appended the socket's address. */
function addressSeen(remoteAddress: string, forwarded: string | undefined, trustedProxies: number): string {
  const req = request(remoteAddress, forwarded);
  appendForwardedFor(req);
  return clientIp(new Headers(req.headers as Record<string, string>), { trustedProxies });
}

describe('appendForwardedFor', () => {
  it('sets the header from the socket when the client sent none', () => {
    const req = request('127.0.0.1');
    appendForwardedFor(req);
    expect(req.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('appends the socket to what was sent, as a proxy does', () => {
    const req = request('10.0.0.5', '203.0.113.7');
    appendForwardedFor(req);
    expect(req.headers['x-forwarded-for']).toBe('203.0.113.7, 10.0.0.5');
    const blank = request('10.0.0.5', '  ');
    appendForwardedFor(blank);
    expect(blank.headers['x-forwarded-for']).toBe('10.0.0.5');
  });

  it('leaves the request alone without a socket address (a destroyed socket)', () => {
    const req = request(undefined, '203.0.113.7');
    appendForwardedFor(req);
    expect(req.headers['x-forwarded-for']).toBe('203.0.113.7');
  });

  it.each([
    // [socket, header sent, GATEHOUSE_TRUSTED_PROXIES, address the login limits count]
    ['198.51.100.4', undefined, 0, '198.51.100.4'], // a direct client
    ['198.51.100.4', '203.0.113.1', 0, '198.51.100.4'], // a direct client choosing its "address": ignored
    ['10.0.0.2', '198.51.100.4', 1, '198.51.100.4'], // one proxy that appended the client
    ['10.0.0.2', 'forged, 198.51.100.4', 1, '198.51.100.4'], // ... and what the client sent it is skipped
    ['10.0.0.3', 'forged, 198.51.100.4, 10.0.0.2', 2, '198.51.100.4'], // two proxies
  ])('socket %s, X-Forwarded-For %j, %i trusted proxies: counts %s', (socket, sent, trusted, expected) => {
    expect(addressSeen(socket, sent, trusted)).toBe(expected);
  });
});
