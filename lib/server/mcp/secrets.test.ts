import { describe, expect, it } from 'vitest';
import { decryptSecrets, encryptSecrets, masked, mergeMasked, SECRET_MASK } from './secrets';

const key = 'k'.repeat(32);

describe('MCP server secrets at rest', () => {
  it('round-trips, and the stored text does not contain the secret', () => {
    const stored = encryptSecrets(
      { env: { TOKEN: 'ghp_very_secret' }, headers: { Authorization: 'Bearer abc' } },
      key,
    )!;
    expect(stored).not.toContain('ghp_very_secret');
    expect(stored).not.toContain('Bearer');
    expect(decryptSecrets(stored, key)).toEqual({
      env: { TOKEN: 'ghp_very_secret' },
      headers: { Authorization: 'Bearer abc' },
    });
  });

  it('another GATEHOUSE_SECRET cannot read them (authenticated encryption)', () => {
    const stored = encryptSecrets({ env: { A: 'b' } }, key)!;
    expect(() => decryptSecrets(stored, 'x'.repeat(32))).toThrow();
  });

  it('nothing to store is null', () => expect(encryptSecrets({ env: {} }, key)).toBeNull());

  it('views show names only; a mask sent back keeps the stored value, a new value replaces it', () => {
    expect(masked({ TOKEN: 'secret' })).toEqual({ TOKEN: SECRET_MASK });
    expect(mergeMasked({ TOKEN: SECRET_MASK, NEW: 'n' }, { TOKEN: 'secret', GONE: 'g' })).toEqual({
      TOKEN: 'secret',
      NEW: 'n',
    });
    expect(mergeMasked({ TOKEN: SECRET_MASK }, undefined)).toEqual({});
  });
});
