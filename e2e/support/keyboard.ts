// Moving focus the way a keyboard user does: Tab or Shift+Tab, one stop at a time, until the
// wanted control has focus. The number of stops in between may change (a "show all" button, a
// second suggested rule), so the spec names the target, not the count.
import { expect, type Locator, type Page } from '@playwright/test';

const hasFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab with `backwards`) until `target` is focused; fails after `maxStops`. */
export async function tabTo(page: Page, target: Locator, { backwards = false, maxStops = 40 } = {}): Promise<void> {
  const key = backwards ? 'Shift+Tab' : 'Tab';
  for (let stop = 0; stop < maxStops && !(await hasFocus(target)); stop++) await page.keyboard.press(key);
  await expect(target, `${key} reaches the control within ${maxStops} stops`).toBeFocused();
}
