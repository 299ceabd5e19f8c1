/**
 * A screenshot of every game at desktop and phone sizes in Debian's Chromium against a real Kibitz (printed
 * path; look at them after changing the page), each checked for a board that fits and no console error.
 */
import t from 'tap';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSession, closePage, openPage, screenshotDir, setBudget, SIZES, waitForTurn } from '../support/browser.js';

const session = browserSession(t);

t.test('a screenshot of every game at 1280x800 and 390x844', async (t) => {
  const dir = screenshotDir();
  const setups: Record<string, (page: Page) => Promise<void>> = {
    mnk: async (page) => {
      await page.selectOption('#preset', '15,15,5');
      await page.waitForSelector('[data-move="7,7"].legal');
      await page.click('[data-move="7,7"]');
    },
    othello: async (page) => {
      await page.click('[data-move="d3"]');
    },
    tablut: async (page) => {
      await page.click('[data-move="e4"]');
    },
    hadron: async (page) => {
      await page.click('[data-move="E5"]');
    },
  };
  for (const size of SIZES) {
    for (const [game, setup] of Object.entries(setups)) {
      const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=${game}`, size);
      await setBudget(page, 150);
      await waitForTurn(page);
      await setup(page);
      // Wait for the engine's reply (Tablut only shows a selected piece).
      if (game !== 'tablut') await page.waitForFunction(() => document.querySelectorAll('#moves button').length >= 2);
      await waitForTurn(page);
      const path = join(dir, `${game}-${size.width}x${size.height}.png`);
      await page.screenshot({ path, fullPage: size.width < 500 });
      const box = await page.locator('#board').boundingBox();
      t.ok(box !== null && box.width <= size.width && box.width >= Math.min(300, size.width - 40), `${game} at ${size.width}: the board fits (${box?.width})`);
      t.same(errors, [], `${game} at ${size.width}: no console error`);
      await closePage(page);
    }
  }
  t.comment(`screenshots in ${dir}`);
});
