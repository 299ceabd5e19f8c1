/**
 * Rules of the (M,N,K)-game: K or more in a row wins in all four directions (overlines too), on
 * every border, a full board without a line is a draw, k = 1 and 1 x N boards work.
 */
import t from 'tap';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_LOSS } from '../../../src/search/score.js';
import { perft } from '../../../src/search/perft.js';
import type { MnkPosition } from '../../../src/games/mnk/index.js';
import { emptyPosition, play, positionOf, cell } from '../../fixtures/mnk/boards.js';

/** Plays X on `xs` and O on `os` alternately (O fillers must not matter), then checks the status. */
function lineGame(m: number, n: number, k: number, xs: [number, number][], os: [number, number][]): MnkPosition {
  const pos = emptyPosition(m, n, k);
  for (let i = 0; i < xs.length; i++) {
    play(pos, xs[i]);
    if (i < xs.length - 1) play(pos, os[i]);
  }
  return pos;
}

t.test('a K-line wins in every direction and along every border', async (t) => {
  const m = 7;
  const n = 8;
  const k = 4;
  const lines: [string, [number, number][]][] = [
    ['row 0 (top border)', [[0, 4], [0, 5], [0, 6], [0, 7]]],
    ['row 6 (bottom border)', [[6, 0], [6, 1], [6, 2], [6, 3]]],
    ['column 0 (left border)', [[3, 0], [4, 0], [5, 0], [6, 0]]],
    ['column 7 (right border)', [[0, 7], [1, 7], [2, 7], [3, 7]]],
    ['diagonal into the bottom-right corner', [[3, 4], [4, 5], [5, 6], [6, 7]]],
    ['anti-diagonal from the top-right corner', [[0, 7], [1, 6], [2, 5], [3, 4]]],
    ['anti-diagonal into the bottom-left corner', [[3, 3], [4, 2], [5, 1], [6, 0]]],
  ];
  // O's stones go to the middle rows, away from every tested line.
  for (const [name, xs] of lines) {
    const used = new Set(xs.map(([r, c]) => r * n + c));
    const os: [number, number][] = [];
    for (let c = 0; os.length < k - 1; c++) {
      const r = 2 + (c % 2) * 2;
      if (!used.has(r * n + c) && r !== 3) os.push([r, c]);
    }
    const before = lineGame(m, n, k, xs.slice(0, k - 1), os);
    t.equal(before.terminal(), NOT_TERMINAL, `${name}: K-1 stones do not win`);
    const pos = lineGame(m, n, k, xs, os);
    t.equal(pos.terminal(), RESULT_LOSS, `${name}: O to move has lost`);
  }
});

t.test('the last stone may complete the line in its middle, and overlines win', async (t) => {
  // X ..X.XX with X playing the gap: 4 in a row for k = 4.
  const gap = positionOf(['XX.X....', 'OOO.....', '........'], 4, 'X');
  t.equal(gap.terminal(), NOT_TERMINAL);
  gap.makeMove(cell(gap, 0, 2));
  t.equal(gap.terminal(), RESULT_LOSS, 'gap filled: XXXX');
  // Joining 3 + 3 stones into a line of 7 with k = 5 (an overline) wins.
  const over = positionOf(['XXX.XXX.', 'OOO.O.O.', '.....O..'], 5, 'X');
  over.makeMove(cell(over, 0, 3));
  t.equal(over.terminal(), RESULT_LOSS, 'overline of 7 wins for k = 5');
  // An overline across a diagonal.
  const diag = positionOf(['X....O', '.X..O.', '..X...', '......', '....X.', 'OO...X'], 5, 'O');
  diag.makeMove(cell(diag, 2, 0));
  diag.makeMove(cell(diag, 3, 3));
  t.equal(diag.terminal(), RESULT_LOSS, 'six on the main diagonal');
});

t.test('broken lines and lines of the other colour do not win', async (t) => {
  const pos = positionOf(['XXOXX', 'OO...', '.....'], 4, 'O');
  t.equal(pos.terminal(), NOT_TERMINAL);
  pos.makeMove(cell(pos, 1, 2));
  t.equal(pos.terminal(), NOT_TERMINAL, 'OOO is one short of 4');
});

t.test('a full board without a line is a draw', async (t) => {
  const pos = positionOf(['XOX', 'XOO', 'OX.'], 3, 'X');
  t.equal(pos.terminal(), NOT_TERMINAL);
  pos.makeMove(cell(pos, 2, 2));
  t.equal(pos.terminal(), RESULT_DRAW);
  pos.unmakeMove(cell(pos, 2, 2));
  t.equal(pos.terminal(), NOT_TERMINAL, 'unmake reopens the game');
});

t.test('a winning last stone on a full board is a win, not a draw', async (t) => {
  const pos = positionOf(['XOX', 'OXO', 'OX.'], 3, 'X');
  pos.makeMove(cell(pos, 2, 2));
  t.equal(pos.terminal(), RESULT_LOSS);
});

t.test('k = 1: the first stone wins', async (t) => {
  const pos = emptyPosition(2, 3, 1);
  t.equal(pos.terminal(), NOT_TERMINAL);
  pos.makeMove(cell(pos, 1, 2));
  t.equal(pos.terminal(), RESULT_LOSS);
  t.equal(perft(emptyPosition(2, 3, 1), 2), 0, 'no game reaches ply 2');
  t.equal(perft(emptyPosition(2, 3, 1), 1), 6);
});

t.test('1 x N and N x 1 boards only have one line direction', async (t) => {
  const row = emptyPosition(1, 7, 3);
  play(row, [0, 0], [0, 6], [0, 1], [0, 5]);
  t.equal(row.terminal(), NOT_TERMINAL);
  play(row, [0, 2]);
  t.equal(row.terminal(), RESULT_LOSS, 'XXX on a 1x7 board');
  const column = emptyPosition(6, 1, 6);
  play(column, [0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]);
  t.equal(column.terminal(), RESULT_DRAW, 'k = 6 on a 6x1 board can only be drawn once both played');
  const tiny = emptyPosition(1, 1, 1);
  tiny.makeMove(0);
  t.equal(tiny.terminal(), RESULT_LOSS, '1x1, k = 1');
});

t.test('tic-tac-toe game counts', async (t) => {
  // Expected numbers: the complete tic-tac-toe game tree, 255,168 games of which X wins 131,184,
  // O wins 77,904 and 46,080 are drawn (http://nishioka.com/javascript/tic-tac-toe.html, the
  // "X Wins / O Wins / Ties" table). Games ending on the 5th..9th move: 1440, 5328, 47952, 72576,
  // 127872 (H. Bottomley, http://www.se16.info/hgb/tictactoe.htm, "Number of games ending on the
  // ... move"; their sum is 255,168).
  const pos = emptyPosition(3, 3, 3);
  const counts = { x: 0, o: 0, draw: 0 };
  const byPly = new Array<number>(10).fill(0);
  const buf = new Int32Array(100);
  const walk = (ply: number): void => {
    const status = pos.terminal();
    if (status !== NOT_TERMINAL) {
      if (status === RESULT_DRAW) counts.draw++;
      else if (pos.side === 1) counts.x++;
      else counts.o++;
      byPly[ply]++;
      return;
    }
    const count = pos.generateMoves(buf, ply * 10);
    for (let i = 0; i < count; i++) {
      const move = buf[ply * 10 + i];
      pos.makeMove(move);
      walk(ply + 1);
      pos.unmakeMove(move);
    }
  };
  walk(0);
  t.same(counts, { x: 131184, o: 77904, draw: 46080 });
  t.same(byPly.slice(5), [1440, 5328, 47952, 72576, 127872]);
  // Perft (finished games count 0): 9 * 8 * 7 * 6 = 3024 at ply 4, nothing can end before ply 5;
  // at ply 6: 9 * 8 * 7 * 6 * 5 * 4 = 60480 sequences minus the 1440 games over at ply 5 times
  // their 4 continuations = 54720.
  t.equal(perft(emptyPosition(3, 3, 3), 4), 3024);
  t.equal(perft(emptyPosition(3, 3, 3), 6), 54720);
});

t.test('generateMoves lists every empty cell; search moves are legal and forced when needed', async (t) => {
  const pos = positionOf(['.....', '.XX..', '..OO.', '.....', '.....'], 4, 'X');
  const buf = new Int32Array(64);
  t.equal(pos.generateMoves(buf, 3), 21);
  t.equal(buf[3], 0);
  // X to move with a K-2 line: no forced move yet; every search move is an empty cell.
  const count = pos.generateSearchMoves(buf, 0);
  t.ok(count > 0);
  for (let i = 0; i < count; i++) t.equal(pos.cells[buf[i]], 0, 'search move is on an empty cell');
  // O threatens ..OOO at row 2: X must block (two blocking cells 2,1 and 2,4 for k = 4).
  pos.makeMove(cell(pos, 0, 0));
  pos.makeMove(cell(pos, 2, 4));
  const blocks = pos.generateSearchMoves(buf, 0);
  t.same([...buf.subarray(0, blocks)].sort((a, b) => a - b), [cell(pos, 2, 1)], 'only 2,1 stops .OOO (k = 4)');
});
