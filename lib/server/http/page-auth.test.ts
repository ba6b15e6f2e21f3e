import { describe, expect, it } from 'vitest';
import { loginPathFor } from './page-auth';

describe('loginPathFor sends the visitor back to the page they wanted', () => {
  it('carries the path in next, encoded', () => {
    expect(loginPathFor('/users')).toBe('/login?next=%2Fusers');
    expect(loginPathFor('/runs?status=waiting')).toBe('/login?next=%2Fruns%3Fstatus%3Dwaiting');
  });

  it('leaves next out for the home page and anything that is not a same-site path', () => {
    expect(loginPathFor('/')).toBe('/login');
    expect(loginPathFor('//evil.example')).toBe('/login');
    expect(loginPathFor('https://evil.example')).toBe('/login');
  });
});
