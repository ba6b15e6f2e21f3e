// Invisible characters are shown, never obeyed: a right-to-left override (U+202E) inside a quoted
// word of a command is displayed as the token ⟨U+202E⟩ (named for assistive technology) in the
// approval dialog's prompt and parameters, the chat transcript, the runs page, the audit page and
// the rules page, and the text after it is not drawn reversed. The dialog's buttons still work.
// A NO-BREAK SPACE (one shell word that reads as two) and a Cyrillic letter inside a Latin word are
// marked in the dialog too, the look-alike letter kept readable beside its code point.
import { expect, test, type Locator } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { ChatPage } from './pages/chat-page';
import { RulesPage } from './pages/rules-page';
import { RunsPage } from './pages/runs-page';
import { addRules, marker, removeRules } from './support/policy-api';
import { uniqueMarker } from './support/runs-api';

const RLO = '\u202E';
const TOKEN = '⟨U+202E⟩';
const NAME = 'invisible character U+202E RIGHT-TO-LEFT OVERRIDE';

/** The element's text holds the token and not the character itself. */
async function expectRevealed(locator: Locator, text: string) {
  await expect(locator).toContainText(text);
  expect(await locator.evaluate((el) => el.textContent ?? '')).not.toContain(RLO);
}

/**
 * Whether `text` is drawn left to right where it appears in `container`: each of its characters
 * starts to the right of the one before (or on a later line). Under a live U+202E the characters after it are drawn
 * right to left, so this is what a human actually sees, not just what the DOM holds.
 */
async function drawnLeftToRight(container: Locator, text: string): Promise<boolean> {
  return container.evaluate((root, text) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(text);
      if (at < 0) continue;
      const range = document.createRange();
      const boxes = [...text].map((_, i) => {
        range.setStart(node!, at + i);
        range.setEnd(node!, at + i + 1);
        return range.getBoundingClientRect();
      });
      // Right of the previous character, or on a line below it (the text may wrap).
      return boxes.every((box, i) => i === 0 || box.left > boxes[i - 1]!.left || box.top > boxes[i - 1]!.bottom - 1);
    }
    throw new Error(`no text node holds ${text}`);
  }, text);
}

test('a right-to-left override inside quotes is shown as a token in the dialog, the transcript, the runs and the audit pages', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const mark = uniqueMarker('rlo');
  const tail = `def-${mark}`;
  await chat.goto();
  const runId = await chat.say(`$ echo 'abc${RLO}${tail}'`);

  await chat.expectDialogFor(mark);
  const params = chat.dialogParams();
  await expectRevealed(params, `echo 'abc${TOKEN}${tail}'`);
  await expect(params.getByRole('img', { name: NAME })).toBeVisible();
  await expect(params.getByRole('img', { name: NAME })).toHaveAttribute('title', NAME);
  expect(await drawnLeftToRight(params, tail)).toBe(true);
  // The headline (the dialog's description) too.
  await expect(chat.dialog).toHaveAccessibleDescription(new RegExp(`abc ?${NAME.replace('+', '\\+')} ?${tail}`));
  const description = chat.dialog.locator('.ui-dialog__description');
  await expectRevealed(description, `abc${TOKEN}${tail}`);
  expect(await drawnLeftToRight(description, tail)).toBe(true);

  await chat.approveOnce.click();
  await expect(chat.dialog).toBeHidden();
  const card = chat.toolCall('bash', mark);
  await chat.expectCallStatus(card, 'done');
  await expectRevealed(card.getByLabel('bash parameters'), `abc${TOKEN}${tail}`);
  const output = card.getByLabel('Output', { exact: true });
  await expectRevealed(output, `abc${TOKEN}${tail}`);
  expect(await drawnLeftToRight(output, tail)).toBe(true);
  await expectRevealed(chat.conversation, `$ echo 'abc${TOKEN}${tail}'`);

  const runs = new RunsPage(page);
  await runs.goto();
  const row = runs.row(mark);
  await expectRevealed(row, `abc${TOKEN}${tail}`);
  await expect(row.getByRole('link', { name: new RegExp(tail) }).first()).toHaveAttribute(
    'title',
    `$ echo 'abc${TOKEN}${tail}'`,
  );

  const audit = new AuditPage(page);
  await audit.goto(`?run=${encodeURIComponent(runId)}`);
  const asked = audit.rows.filter({ has: page.getByText('ask', { exact: true }) }).first();
  await asked.getByText('Params', { exact: true }).click();
  const auditParams = asked.getByLabel('Params', { exact: true });
  await expectRevealed(auditParams, `abc${TOKEN}${tail}`);
  expect(await drawnLeftToRight(auditParams, tail)).toBe(true);
});

test('the rules page shows a rule and a tested call holding a right-to-left override as tokens', async ({
  page,
  request,
}) => {
  const mark = marker();
  const id = `rlo-rule-${mark}`;
  await addRules(request, {
    id,
    action: 'deny',
    tool: 'bash',
    params: { command: `rm 'x${RLO}y-${mark}'*` },
    description: `no x${RLO}y-${mark}`,
  });
  try {
    const rules = new RulesPage(page);
    await rules.goto();
    const row = rules.ruleRow(id);
    await expectRevealed(row, `rm 'x${TOKEN}y-${mark}'*`);
    await expectRevealed(row, `no x${TOKEN}y-${mark}`);
    await expect(row.getByRole('img', { name: NAME })).toHaveCount(2);

    const decision = await rules.runTestCall({ tool: 'bash', params: { command: `echo 'q${RLO}w-${mark}' && ls` } });
    await expectRevealed(decision, `q${TOKEN}w-${mark}`);
    expect(await drawnLeftToRight(decision, `w-${mark}`)).toBe(true);
  } finally {
    await removeRules(request, mark);
  }
});

test('a NO-BREAK SPACE and a Cyrillic look-alike in a command are marked in the approval dialog', async ({ page }) => {
  const chat = new ChatPage(page);
  const mark = uniqueMarker('nbsp');
  await chat.goto();
  // `rm<NBSP>-rf` is one word to the shell; `p<U+0430>sswd` is passwd spelt with a Cyrillic letter.
  await chat.say(`$ echo rm\u00A0-rf /etc/p\u0430sswd-${mark}`);

  await chat.expectDialogFor(mark);
  const params = chat.dialogParams();
  await expect(params).toContainText(`echo rm⟨U+00A0⟩-rf /etc/p\u0430⟨U+0430⟩sswd-${mark}`);
  expect(await params.evaluate((el) => el.textContent ?? '')).not.toContain('\u00A0');
  const nbsp = 'invisible character U+00A0 NO-BREAK SPACE';
  await expect(params.getByRole('img', { name: nbsp })).toBeVisible();
  await expect(params.getByRole('img', { name: nbsp })).toHaveAttribute('title', nbsp);
  const lookalike = params.getByRole('img', {
    name: 'look-alike letter U+0430 CYRILLIC SMALL LETTER A, looks like Latin a',
  });
  await expect(lookalike).toHaveText('\u0430⟨U+0430⟩');
  // Only the Cyrillic letter is marked: the rest of the word, and the marker, stay plain text.
  await expect(params.getByRole('img')).toHaveCount(2);
  await expect(chat.dialog.locator('.ui-dialog__description')).toContainText(
    `rm⟨U+00A0⟩-rf /etc/p\u0430⟨U+0430⟩sswd-${mark}`,
  );

  await chat.deny.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('bash', mark), 'denied');
});
