import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, SECURITY_HEADERS, setSecurityHeaders } from './security-headers.mjs';

const directives = (policy: string) =>
  Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
const NONCE = 'AAECAwQFBgcICQoLDA0ODw==';

describe('security headers', () => {
  it('every response: no framing, no sniffing, no referrer to other sites (same-origin keeps Origin on own POSTs)', () => {
    const set: Record<string, string> = {};
    setSecurityHeaders({
      setHeader: (name: string, value: string | number | readonly string[]) =>
        ((set[name] = String(value)), undefined) as never,
    });
    expect(set).toEqual({
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    });
    expect(SECURITY_HEADERS.map(([name]) => name)).not.toContain('Content-Security-Policy');
  });

  it("a page's policy: nobody frames it, scripts need the nonce, no plugins or foreign forms", () => {
    const policy = directives(contentSecurityPolicy({ nonce: NONCE }));
    expect(policy['frame-ancestors']).toBe("'none'");
    expect(policy['script-src']).toBe(`'self' 'nonce-${NONCE}' 'strict-dynamic'`);
    expect(policy['style-src']).toBe(`'self' 'nonce-${NONCE}'`);
    expect(policy['object-src']).toBe("'none'");
    expect(policy['base-uri']).toBe("'self'");
    expect(policy['form-action']).toBe("'self'");
    expect(Object.values(policy).join(' ')).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('next dev gets eval and inline styles, production never', () => {
    const dev = directives(contentSecurityPolicy({ nonce: NONCE, dev: true }));
    expect(dev['script-src']).toContain("'unsafe-eval'");
    expect(dev['style-src']).toBe("'self' 'unsafe-inline'");
  });

  it('refuses a nonce that could break out of the header', () => {
    expect(() => contentSecurityPolicy({ nonce: "x'; script-src *" })).toThrow(TypeError);
    expect(() => contentSecurityPolicy({ nonce: 'short' })).toThrow(TypeError);
  });
});
