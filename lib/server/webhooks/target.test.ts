// Where a webhook may point: http(s) only, never Gatehouse itself, private targets only when allowed.
import { describe, expect, it } from 'vitest';
import { checkWebhookTarget } from './target';

const strict = { allowPrivate: false, ownPort: 3000, publicUrl: 'https://gate.example' };
const local = { ...strict, allowPrivate: true };

describe('webhook targets', () => {
  it.each([
    ['ftp://example.com/hook', strict, /http:\/\/ or https:\/\//],
    ['not a url', strict, /absolute/],
    ['https://user:pw@example.com/hook', strict, /credentials/],
    ['https://gate.example/api/hook', strict, /Gatehouse itself/],
    ['http://127.0.0.1:3000/api/chat', local, /Gatehouse itself/],
    ['http://localhost:3000/x', local, /Gatehouse itself/],
    ['http://127.0.0.1:9999/hook', strict, /loopback.*GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE/],
    ['http://10.1.2.3/hook', strict, /private/],
    ['http://169.254.169.254/latest', strict, /cloud metadata/],
    ['http://[::1]:9999/hook', strict, /loopback/],
    ['https://no-such-host.invalid/hook', strict, /cannot be resolved/],
  ])('%s is refused', async (url, options, message) => {
    await expect(checkWebhookTarget(url, options)).rejects.toThrow(message);
  });

  it('a loopback receiver on another port is accepted when private targets are allowed, pinned to the checked address', async () => {
    const checked = await checkWebhookTarget('http://127.0.0.1:9999/hook', local);
    expect(checked.pinned).toEqual({ address: '127.0.0.1', family: 4 });
  });
});
