// Smoke test: the production build serves the home page.
import { expect, test } from '@playwright/test';

test('home page shows the Gatehouse heading', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Gatehouse' })).toBeVisible();
  await expect(page).toHaveTitle('Gatehouse');
});
