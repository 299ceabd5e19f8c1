/**
 * Studying a position in the playground, in Debian's Chromium against a real Kibitz: analysis mode (the real analyse
 * route's streamed lines, a server without the route, the stream of the contract), undo, redo and jumps, a pasted
 * state. Its own process, beside playground.test.ts (the two run side by side).
 */
import t from 'tap';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSession, closePage, openPage, plies, screenshotDir, setBudget, stateOf, waitForTurn } from '../support/browser.js';

const session = browserSession(t);

/** Records every text the analysis status line shows (each progress event rewrites it). */
async function recordStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { statusLog: string[] }).statusLog = log;
    const status = document.getElementById('analysis-status')!;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) log.push(node.textContent ?? '');
    }).observe(status, { childList: true });
  });
}

const statusLog = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { statusLog: string[] }).statusLog);

t.test('analysis mode on the real analyse route: streamed lines with score, win probability and PV; hover previews', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=othello`);
  await page.waitForSelector('[data-move="d3"].legal');
  await setBudget(page, 1500);
  await recordStatus(page);
  await page.check('#analysis');
  await page.waitForFunction(() => /^Done/.test(document.getElementById('analysis-status')!.textContent ?? ''), undefined, { timeout: 20_000 });
  const log = await statusLog(page);
  const depths = log.map((s) => /^Searching: depth (\d+)/.exec(s)).filter((m) => m !== null).map((m) => Number(m![1]));
  t.ok(depths.length >= 2 && depths[depths.length - 1] > depths[0], `progress events redraw the lines as the depth grows: ${depths.join(' ')}`);
  t.equal(await page.locator('#lines li').count(), 3, 'three lines (multiPv 3)');
  t.match(await page.textContent('#lines li:first-child .mv'), /^[a-h][1-8]$/);
  t.match(await page.textContent('#lines li:first-child .sc'), /^([+-]?\d|win|loss|draw)/);
  t.match(await page.textContent('#lines li:first-child .wp'), /^\d+%$/, 'win probability shown');
  t.ok(((await page.textContent('#lines li:first-child .pv')) ?? '').split(' ').length >= 2, 'a principal variation');
  t.ok(await page.isVisible('#evalbar'), 'the evaluation bar is shown');
  t.match(await page.textContent('#evalbar .evalbar-text'), /^\d+%$/);
  t.equal(await page.locator('.ghost').count(), 0);
  await page.hover('#lines li:first-child');
  t.ok((await page.locator('.ghost').count()) >= 2, 'hovering a line previews its moves on the board');
  await page.screenshot({ path: join(screenshotDir(), 'othello-analysis-1280x800.png') });
  await page.hover('h1');
  t.equal(await page.locator('.ghost').count(), 0, 'the preview goes with the pointer');
  t.equal((await plies(page)).length, 0, 'analysis plays nothing by itself');
  await page.click('#copy-curl');
  t.match(await page.textContent('#curl'), /\/v1\/games\/othello\/analyse -H 'content-type: application\/json' -d '\{"state":.*"multiPv":3/);
  t.same(errors, []);
  await closePage(page);
});

t.test('a server without the analyse route: analysis says so and shows the best move instead', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=othello`);
  // An older Kibitz answers an unknown route with the API's 404 body.
  await page.route('**/v1/games/othello/analyse', (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: 'no route POST /v1/games/othello/analyse' }),
    }),
  );
  await page.waitForSelector('[data-move="d3"].legal');
  await setBudget(page, 300);
  await page.check('#analysis');
  await page.waitForFunction(() => /not available/.test(document.getElementById('analysis-status')!.textContent ?? ''));
  t.equal(await page.textContent('#analysis-status'), 'Analysis is not available on this server (no analyse route): showing the best move instead.');
  await page.waitForSelector('#lines li');
  t.equal(await page.locator('#lines li').count(), 1, 'the best move as the one line');
  t.match(await page.textContent('#lines li:first-child .mv'), /^[a-h][1-8]$/);
  await page.hover('#lines li:first-child');
  t.ok((await page.locator('.ghost').count()) >= 1, 'its line previews too');
  await page.click('[data-move="d3"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 1);
  await page.waitForFunction(() => document.querySelector('#lines li') !== null);
  t.match(await page.textContent('#analysis-status'), /not available/, 'the next position is analysed the same way, without asking again');
  t.same(await page.locator('#message').textContent(), '', 'no error shown');
  t.same(errors.filter((e) => !/status of 404/.test(e)), [], "only the 404 the page expects");
  await closePage(page);
});

/** The analyse contract's stream (progress events, a heartbeat, then the result), as Othello's start would give it. */
function analyseStream(): string {
  const m = (notation: string) => ({ notation, row: Number(notation[1]) - 1, col: notation.charCodeAt(0) - 97 });
  const line = (move: string, score: number, winProbability: number, pv: string[]) => ({
    move: m(move),
    evaluation: { score, winProbability },
    pv: [move, ...pv].map(m),
  });
  const at = (depth: number, shift: number) => ({
    lines: [line('f5', 0.5 + shift, 0.53, ['f6', 'e6']), line('d3', 0.4 + shift, 0.52, ['c3', 'c4']), line('c4', 0.3, 0.51, ['e3', 'f2'])],
    depth,
    nodes: depth * 1000,
    elapsedMs: depth * 10,
  });
  const events = [
    `event: progress\ndata: ${JSON.stringify(at(1, 0))}\n\n`,
    ': heartbeat\n\n',
    `event: progress\ndata: ${JSON.stringify(at(2, 0.1))}\n\n`,
    `event: result\ndata: ${JSON.stringify({ ...at(3, 0.2), nps: 100000, queueMs: 0, stopReason: 'time' })}\n\n`,
  ];
  return events.join('');
}

t.test('analysis mode reads the analyse stream of the contract: progress events, then the result', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=othello`);
  const bodies: unknown[] = [];
  await page.route('**/v1/games/othello/analyse', async (route) => {
    bodies.push({ body: route.request().postDataJSON(), accept: route.request().headers().accept });
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: analyseStream() });
  });
  await page.waitForSelector('[data-move="d3"].legal');
  await recordStatus(page);
  await page.check('#analysis');
  await page.waitForFunction(() => /^Done/.test(document.getElementById('analysis-status')!.textContent ?? ''));
  t.match(bodies[0], { body: { state: { turn: 'B' }, multiPv: 3, timeBudgetMs: 500 }, accept: 'text/event-stream' }, 'the request of the contract');
  t.same(await statusLog(page), ['Analysing…', 'Searching: depth 1, 1,000 nodes', 'Searching: depth 2, 2,000 nodes', 'Done: depth 3, 3,000 nodes (time)']);
  t.same(await page.locator('#lines li .mv').allTextContents(), ['f5', 'd3', 'c4']);
  t.same(await page.locator('#lines li .sc').allTextContents(), ['+0.7', '+0.6', '+0.3']);
  t.same(await page.locator('#lines li .wp').allTextContents(), ['53%', '52%', '51%']);
  t.equal(await page.textContent('#lines li:first-child .pv'), 'f5 f6 e6');
  t.equal(await page.textContent('#evalbar .evalbar-text'), '53%', "the bar shows Black's chance");
  await page.hover('#lines li:nth-child(2)');
  t.equal(await page.locator('.ghost').count(), 3, 'hovering line 2 previews its three moves');
  await page.click('#lines li:nth-child(2)');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 1);
  t.same(await plies(page), ['d3'], "clicking a line plays its first move (the person's move)");
  t.same(errors, []);
  await closePage(page);
});

t.test('undo, redo and jump to a ply', async (t) => {
  const { page, errors } = await openPage(session.browser, session.kibitz.url);
  await page.selectOption('#engine-side', '');
  for (const [i, move] of ['0,0', '1,1', '2,2'].entries()) {
    await page.waitForSelector(`[data-move="${move}"].legal`);
    // The cells answer the keyboard too: Tab reaches the legal ones, Enter plays.
    await page.focus(`[data-move="${move}"]`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('#moves button').length === n, i + 1);
  }
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 3);
  await page.click('#undo');
  await waitForTurn(page);
  t.same((await stateOf(page)).board, ['X..', '.O.', '...']);
  await page.click('#redo');
  await waitForTurn(page);
  t.same((await stateOf(page)).board, ['X..', '.O.', '..X']);
  await page.click('#moves button[data-ply="1"]');
  await waitForTurn(page);
  t.same((await stateOf(page)).board, ['X..', '...', '...']);
  t.equal(await page.getAttribute('#moves button[data-ply="1"]', 'aria-current'), 'step');
  await page.click('[data-move="0,1"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 2);
  t.same(await plies(page), ['0,0', '0,1'], 'a new move after a jump replaces the rest of the line');
  t.same(errors, []);
  await closePage(page);
});

t.test("a broken pasted state shows the API's message with the field", async (t) => {
  const { page, errors } = await openPage(session.browser, session.kibitz.url);
  await page.waitForSelector('[data-move="0,0"].legal');
  await page.fill('#state-json', '{"m":3,"n":3,"k":3,"board":["...","...","..."],"turn":"Z"}');
  await page.click('#load-state');
  await page.waitForSelector('#message.error');
  t.match(await page.textContent('#message'), /VALIDATION_ERROR: body\/state\/turn .*\(field: body\/state\/turn\)/);
  await page.fill('#state-json', '{"m":3,"n":3,"k":3,"board":["...","..","..."],"turn":"X"}');
  await page.click('#load-state');
  await page.waitForFunction(() => /board\/1/.test(document.getElementById('message')!.textContent ?? ''));
  t.match(await page.textContent('#message'), /field: body\/state\/board\/1/);
  await page.fill('#state-json', '{"m":3,');
  await page.click('#load-state');
  await page.waitForFunction(() => /INVALID_JSON/.test(document.getElementById('message')!.textContent ?? ''));
  t.match(await page.textContent('#message'), /INVALID_JSON: body is not valid JSON/);
  t.equal(await page.locator('rect.sq.legal').count(), 9, 'the position did not change');
  t.equal(await page.inputValue('#state-json'), '{"m":3,', 'the pasted text stays to be fixed');
  await page.fill('#state-json', '{"m":3,"n":3,"k":3,"board":["XO.",".X.","..O"],"turn":"X"}');
  await page.click('#load-state');
  await page.waitForFunction(() => document.getElementById('message')!.textContent === 'State loaded.');
  await waitForTurn(page);
  t.equal(await page.locator('rect.sq.legal').count(), 5, 'a good paste is loaded: five empty cells');
  await page.click('#copy-curl');
  const curl = (await page.textContent('#curl')) ?? '';
  t.match(curl, /^curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/games\/mnk\/best-move -H 'content-type: application\/json' -d '\{"state":/);
  const body = JSON.parse(curl.slice(curl.indexOf("-d '") + 4, -1)) as { state: { board: string[] } };
  t.same(body.state.board, ['XO.', '.X.', '..O'], 'the curl command carries the current position');
  t.ok(errors.every((e) => /status of 4\d\d/.test(e)), 'only the refused requests are logged by the browser');
  await closePage(page);
});
