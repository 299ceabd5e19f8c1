/**
 * The playground in Debian's Chromium against a real Kibitz: play to the end, engine replies, the
 * two-step Tablut move, refused clicks. Studying a position (analysis.test.ts: analysis mode, undo and jumps, a pasted
 * state) and the screenshots of every game (screenshots.test.ts) are files of their own, so the three run side by side.
 */
import t from 'tap';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSession, closePage, openPage, plies, screenshotDir, setBudget, stateOf, waitForTurn } from '../support/browser.js';

const session = browserSession(t);




/** Perfect tic-tac-toe for the side to move: the value (+1 win, 0 draw, -1 loss) and a best cell. */
function solve(board: string[], me: string): { value: number; cell: number } {
  const cells = board.join('').split('');
  const lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
  const you = me === 'X' ? 'O' : 'X';
  const won = (p: string) => lines.some((l) => l.every((i) => cells[i] === p));
  const search = (side: string, other: string): { value: number; cell: number } => {
    if (won(other)) return { value: -1, cell: -1 };
    let best = { value: -2, cell: -1 };
    for (let i = 0; i < 9; i++) {
      if (cells[i] !== '.') continue;
      cells[i] = side;
      const value = -search(other, side).value;
      cells[i] = '.';
      if (value > best.value) best = { value, cell: i };
    }
    return best.cell < 0 ? { value: 0, cell: -1 } : best;
  };
  return search(me, you);
}

t.test('the exactK rule of the (M,N,K)-game: a checkbox that starts a game whose state carries exactK', async (t) => {
  const { page, errors } = await openPage(session.browser, session.kibitz.url);
  await page.waitForSelector('#exact-k-row:not([hidden])', { state: 'attached' });
  t.notOk(await page.isChecked('#exact-k'), 'freestyle by default');
  t.notOk('exactK' in (await stateOf(page)), 'a freestyle state has no exactK field');
  await page.check('#exact-k');
  await page.waitForFunction(() => (document.getElementById('state-json') as HTMLTextAreaElement).value.includes('"exactK":true'));
  t.equal((await stateOf(page) as unknown as { exactK: boolean }).exactK, true, 'the new game is played by the exactly-K rule');
  await page.selectOption('#game', 'othello');
  await page.waitForSelector('#exact-k-row', { state: 'hidden' });
  t.same(errors, [], 'no console error, no CSP violation');
  await closePage(page);
});

t.test('tic-tac-toe against the engine to the end: the draw banner', async (t) => {
  const { page, errors } = await openPage(session.browser, session.kibitz.url);
  // The row, not the select: the row is hidden until the app has loaded the catalogue and chosen the (M,N,K)-game.
  await page.waitForSelector('#preset-row:not([hidden])', { state: 'attached' });
  t.equal(await page.inputValue('#game'), 'mnk');
  t.equal(await page.inputValue('#preset'), '3,3,3');
  t.equal(await page.inputValue('#engine-side'), 'O', 'the engine plays O; the person X');
  await setBudget(page, 200);
  for (let move = 0; move < 5; move++) {
    await waitForTurn(page);
    if (!(await page.isHidden('#banner'))) break;
    const state = await stateOf(page);
    const { cell } = solve(state.board as string[], state.turn);
    await page.click(`[data-move="${Math.floor(cell / 3)},${cell % 3}"]`);
    await page.waitForFunction((n) => document.querySelectorAll('#moves button').length > n, move * 2);
  }
  await page.waitForSelector('#banner:not([hidden])');
  t.match(await page.textContent('#banner'), /^Draw: the board is full/);
  t.equal((await plies(page)).length, 9, 'nine plies in the move list');
  const board = (await stateOf(page)).board as string[];
  t.notOk(board.join('').includes('.'), 'the board is full');
  await page.screenshot({ path: join(screenshotDir(), 'mnk-draw-1280x800.png') });
  t.same(errors, [], 'no console error, no CSP violation');
  await closePage(page);
});

t.test('an Othello move: the engine replies and the score follows', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=othello`);
  await setBudget(page, 200);
  await page.waitForSelector('[data-move="d3"].legal');
  t.equal(await page.textContent('#score'), 'Black 2 – White 2');
  t.match(await page.getAttribute('[data-move="d3"]', 'aria-label'), /legal move for Black/);
  await page.click('[data-move="d3"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 2);
  await waitForTurn(page);
  t.equal((await plies(page))[0], 'd3');
  t.match((await plies(page))[1], /^(c3|e3|c5)$/, "the engine's reply is one of White's three moves");
  t.equal(await page.textContent('#score'), 'Black 3 – White 3', 'every White reply flips one disc');
  t.match(await page.textContent('#engine-info'), /Engine \(White\) played (c3|e3|c5)/);
  t.equal((await stateOf(page)).turn, 'B');
  // The level control: full strength by default, listed from the catalogue, hidden when nobody is the engine.
  t.equal(await page.inputValue('#level'), '8');
  t.match(await page.textContent('#level option[value="1"]'), /^1 \(beginner\)/);
  await page.selectOption('#level', '2');
  await page.click('#copy-curl');
  t.match(await page.textContent('#curl'), /"level":2/, 'the request carries the level');
  await page.selectOption('#engine-side', '');
  t.equal(await page.isVisible('#level-row'), false);
  t.same(errors, []);
  await closePage(page);
});

t.test('Othello: a side without a move passes with the Pass button; the game-over banner says why', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=othello`);
  await setBudget(page, 100);
  await page.waitForSelector('[data-move="d3"].legal');
  const board = ['BWWWWWWW', '.......B', '........', '........', '........', '........', '........', '........'];
  await page.fill('#state-json', JSON.stringify({ board, turn: 'B' }));
  await page.click('#load-state');
  await page.waitForSelector('#pass:not([hidden])');
  t.equal(await page.locator('rect.sq.legal').count(), 0, 'no square to play');
  t.equal(await page.getAttribute('#pass', 'data-move'), 'pass');
  await page.click('[data-move="a3"]');
  t.match(await page.textContent('#message'), /a3 is not a legal move for Black/);
  await page.click('#pass');
  await page.waitForSelector('#banner:not([hidden])');
  t.same(await plies(page), ['pass', 'h3'], 'Black passed, the engine (White) played h3');
  t.equal(await page.textContent('#banner'), 'White wins: neither side can move; Black 1 – White 9 in discs.');
  t.same(errors, []);
  await closePage(page);
});

t.test('a Tablut pawn moves by piece, then destination; wrong squares are refused', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=tablut`);
  await page.selectOption('#engine-side', '');
  await page.waitForSelector('[data-move="e3"].legal');
  const before = await stateOf(page);
  await page.click('[data-move="a4"]');
  t.match(await page.textContent('#message'), /White has no legal move from a4/, 'a black pawn is refused when White moves');
  t.same(await stateOf(page), before);
  await page.click('[data-move="e3"]');
  await page.waitForSelector('[data-move="e3"].selected');
  t.equal(await page.locator('rect.sq.dest').count(), 8, 'e3 has eight destinations');
  t.equal(await page.getAttribute('[data-move="e3-c3"]', 'aria-label'), 'Move e3 to c3');
  await page.click('[data-move="c7"]');
  t.match(await page.textContent('#message'), /e3-c7 is not a legal move/);
  await page.click('[data-move="e3-c3"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 1);
  await waitForTurn(page);
  const after = (await stateOf(page)) as { board: string[][]; turn: string };
  t.equal(after.board[2][2], 'WHITE', 'the pawn is on c3');
  t.equal(after.board[2][4], 'EMPTY', 'e3 is empty');
  t.equal(after.turn, 'BLACK');
  t.same(await plies(page), ['e3-c3']);
  t.same(errors, []);
  await closePage(page);
});

t.test('Tablut: the page sends the history, so a repeated position ends the game in a draw', async (t) => {
  const { page, errors } = await openPage(session.browser, `${session.kibitz.url}/?game=tablut`);
  await page.selectOption('#engine-side', '');
  const moves = ['e3-d3', 'a4-a3', 'd3-e3', 'a3-a2', 'e3-d3', 'a2-a3'];
  for (const [i, move] of moves.entries()) {
    const [from] = move.split('-');
    await page.waitForSelector(`[data-move="${from}"].legal`);
    await page.click(`[data-move="${from}"]`);
    await page.click(`[data-move="${move}"]`);
    await page.waitForFunction((n) => document.querySelectorAll('#moves button').length === n, i + 1);
  }
  await page.waitForSelector('#banner:not([hidden])');
  t.equal(await page.textContent('#banner'), 'Draw: a position was repeated.', 'ply 6 repeats the position after ply 2');
  t.same(await plies(page), moves);
  t.same(errors, []);
  await closePage(page);
});

t.test('an illegal click changes nothing', async (t) => {
  const { page, errors } = await openPage(session.browser, session.kibitz.url);
  await setBudget(page, 100);
  await page.waitForSelector('[data-move="1,1"].legal');
  await page.dblclick('[data-move="1,1"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 2);
  await waitForTurn(page);
  t.equal((await plies(page))[0], '1,1', 'a double click plays once: the second click waits for the first');
  t.notOk((await plies(page)).slice(1).includes('1,1'));
  const before = await stateOf(page);
  const label = await page.getAttribute('[data-move="1,1"]', 'aria-label');
  t.match(label, /1,1: X, not a legal move/);
  await page.click('[data-move="1,1"]');
  t.match(await page.textContent('#message'), /1,1 is not a legal move for X here/);
  t.ok(await page.locator('[data-move="1,1"].refused').count(), 'the refused cell flashes');
  t.same(await stateOf(page), before, 'same position');
  t.equal((await plies(page)).length, 2, 'same move list');
  t.same(errors, []);
  await closePage(page);
});
