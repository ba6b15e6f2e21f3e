// Browsers signed in as a spec's people, each a context of its own from a client address of its
// own (the login limit counts per address), through the login page as a person signs in.
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LoginPage } from '../pages/login-page';
import { randomClientIp } from './access-principals';

export function signedInBrowsers(password: string) {
  const contexts: BrowserContext[] = [];
  return {
    /** A page signed in as `username`, on the home page. */
    async as(browser: Browser, baseURL: string, username: string): Promise<Page> {
      const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomClientIp() } });
      contexts.push(context);
      const page = await context.newPage();
      const login = new LoginPage(page);
      await login.goto();
      expect((await login.signIn(username, password)).status()).toBe(200);
      await page.waitForURL(`${baseURL}/`);
      return page;
    },
    /** Closes every context made so far. */
    async close(): Promise<void> {
      for (const context of contexts.splice(0)) await context.close();
    },
  };
}
