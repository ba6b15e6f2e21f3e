// Clickjacking and the security headers, against the e2e server: a page of another origin on the
// same site (127.0.0.1, another port) that frames Gatehouse shows nothing of it; pages carry a
// Content-Security-Policy with a fresh nonce and frame-ancestors 'none', and still hydrate under it
// (no violation reported); every response (pages, Next's API routes, the decision fast path, a
// refused malformed path, static files) carries X-Frame-Options, nosniff and Referrer-Policy.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIResponse } from '@playwright/test';

const BASE_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};
const PAGES = ['/', '/login', '/runs', '/audit', '/rules', '/users'];

function expectBaseHeaders(response: APIResponse, what: string) {
  for (const [name, value] of Object.entries(BASE_HEADERS))
    expect(response.headers()[name], `${name} of ${what}`).toBe(value);
}

function cspDirectives(response: APIResponse): Record<string, string> {
  const policy = response.headers()['content-security-policy'] ?? '';
  return Object.fromEntries(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );
}

/** A page on another port of 127.0.0.1 (same site, another origin) that frames `target`. */
async function framingSite(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Win a prize</title><h1>Click the button!</h1><iframe src="${target}" width="900" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a page of another origin that frames Gatehouse shows nothing of it', async ({ page, baseURL }) => {
  for (const path of ['/', '/login']) {
    const site = await framingSite(new URL(path, baseURL).toString());
    try {
      const child = page.waitForEvent('framenavigated', (frame) => frame !== page.mainFrame());
      await page.goto(site.url);
      const frame = await child;
      await frame.waitForLoadState('load');
      // Chromium replaces a refused frame with its error page: nothing of Gatehouse is there to click.
      expect(frame.url(), `the frame of ${path}`).not.toContain(baseURL!);
      await expect(page.frameLocator('iframe').getByRole('button')).toHaveCount(0);
      await expect(page.frameLocator('iframe').getByText('Gatehouse')).toHaveCount(0);
    } finally {
      await site.close();
    }
  }
});

test('pages send a nonce Content-Security-Policy that forbids framing, and a new nonce each time', async ({
  request,
}) => {
  const nonces = new Set<string>();
  for (const path of [...PAGES, '/no-such-page']) {
    const response = await request.get(path);
    expectBaseHeaders(response, path);
    const csp = cspDirectives(response);
    expect(csp['frame-ancestors'], path).toBe("'none'");
    expect(csp['object-src'], path).toBe("'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp['script-src'] ?? '')?.[1];
    expect(nonce, `a nonce in the script-src of ${path}`).toBeTruthy();
    expect(csp['script-src']).not.toContain('unsafe-inline');
    // Next puts the nonce on every script it renders.
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, `scripts of ${path}`).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, `a script of ${path}`).toContain(`nonce="${nonce}"`);
    nonces.add(nonce!);
  }
  expect(nonces.size).toBe(PAGES.length + 1);
});

test('pages hydrate under the policy: the account corner fills in and no violation is reported', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(message.text()))
      violations.push(message.text());
  });
  for (const path of PAGES.filter((p) => p !== '/login')) {
    await page.goto(path);
    // Filled in by the client (a query after hydration): the page's scripts ran.
    await expect(page.getByRole('group', { name: 'Account' }), path).toContainText('admin');
  }
  expect(violations).toEqual([]);
});

test('API responses, the decision fast path, a refused path and static files carry the headers too', async ({
  request,
}) => {
  expectBaseHeaders(await request.get('/api/health'), 'GET /api/health');
  expectBaseHeaders(await request.get('/api/policy'), 'GET /api/policy');
  // POST /api/chat/relay/:id is answered by the custom server's fast path, before Next.
  const decision = await request.post('/api/chat/relay/no-such-relay', {
    data: { sessionId: 's', response: { approved: true } },
  });
  expect(decision.status()).toBe(404);
  expectBaseHeaders(decision, 'the fast path');
  const malformed = await request.get('/api/runs/%zz');
  expect(malformed.status()).toBe(400);
  expectBaseHeaders(malformed, 'a malformed path');
  const page = await (await request.get('/login')).text();
  const asset = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(page)?.[1];
  expect(asset, 'a static script of /login').toBeTruthy();
  expectBaseHeaders(await request.get(asset!), asset!);
});
