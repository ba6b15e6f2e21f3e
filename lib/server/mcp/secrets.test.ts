import { describe, expect, it } from 'vitest';
import {
  decryptSecrets,
  encryptSecrets,
  masked,
  maskedFields,
  mergeMasked,
  SECRET_MASK,
  UnreadableSecretsError,
} from './secrets';

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
    expect(() => decryptSecrets(stored, 'x'.repeat(32))).toThrow(UnreadableSecretsError);
    expect(() => decryptSecrets(stored, 'x'.repeat(32))).toThrow(/GATEHOUSE_SECRET changed/);
    expect(() => decryptSecrets('v1.damaged', key)).toThrow(UnreadableSecretsError);
  });

  it('the fields sent back as the mask are those that ask to keep a stored value', () =>
    expect(maskedFields({ env: { A: SECRET_MASK, B: 'typed' }, headers: { Authorization: SECRET_MASK } })).toEqual([
      'env.A',
      'headers.Authorization',
    ]));

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
