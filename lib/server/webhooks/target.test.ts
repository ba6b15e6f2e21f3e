// Where a webhook may point: http(s) only, never Gatehouse itself, private targets only when allowed.
import { networkInterfaces } from 'node:os';
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

describe('webhook targets: Gatehouse itself in any spelling', () => {
  // The first non-loopback IPv4 address of this machine (a LAN address in real set-ups).
  const own = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

  it.skipIf(!own)(
    'never Gatehouse itself, also when its own interface address is written as an IPv4-mapped IPv6 literal',
    async () => {
      const options = { allowPrivate: true, ownPort: 3000 };
      // The dotted form is refused,
      await expect(checkWebhookTarget(`http://${own}:3000/api/chat/relay/x`, options)).rejects.toThrow(
        /Gatehouse itself/,
      );
      // and so is the same address as ::ffff:a.b.c.d (URL parsing writes it ::ffff:xxxx:xxxx), which a
      // dual-stack listener on :: answers.
      await expect(checkWebhookTarget(`http://[::ffff:${own}]:3000/api/chat/relay/x`, options)).rejects.toThrow(
        /Gatehouse itself/,
      );
    },
  );
});
