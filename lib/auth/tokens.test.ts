import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_TOKEN_PREFIX, generateApiToken, generateLoginToken, hashToken } from './tokens';

describe('tokens', () => {
  it('API tokens are gh_ + 32 random bytes in base64url', () => {
    const token = generateApiToken();
    expect(token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(token.slice(3), 'base64url')).toHaveLength(32);
    expect(token).toMatch(/^gh_[A-Za-z0-9_-]{43}$/);
    expect(generateApiToken()).not.toBe(token);
  });

  it('login tokens are 32 random bytes, URL-safe', () => {
    const token = generateLoginToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateLoginToken()).not.toBe(token);
  });

  it('hashes to sha256 hex, the stored and looked-up form', () => {
    expect(hashToken('gh_abc')).toBe(createHash('sha256').update('gh_abc').digest('hex'));
    expect(hashToken('gh_abc')).toMatch(/^[0-9a-f]{64}$/);
  });
});
