/**
 * Exact endgame solver against endgames.json from /work/shared/reference/othello (copied to
 * test/fixtures/othello): positions solved by two independent strong engines that agree. Checked:
 * positions[i].exactScore, the move is one of positions[i].bestMoves, and (up to 15 empties) every
 * legal move's exact value equals positions[i].moveValues.
 */
import t from 'tap';
import { WIN_SCORE, NOT_TERMINAL, provenPlies } from '../../../src/search/score.js';
import { engine } from '../../../src/games/othello/index.js';
import { EndgameSolver, solvableEmpties, solveExactly } from '../../../src/games/othello/solver.js';
import { fixture, legalMoves, notation, positionOf, startPosition, type Endgame } from './helpers.js';

const endgames = fixture<{ positions: Endgame[] }>('endgames.json').positions;
const never = { deadline: Infinity, shouldStop: () => false };
const MOVE_VALUES_MAX_EMPTIES = 15;

t.test('every reference endgame: exact score and a best move', async (t) => {
  t.equal(endgames.length, 10);
  for (const e of endgames) {
    const pos = positionOf(e.board, e.turn);
    t.equal(pos.empties, e.empties, `${e.id}: empties`);
    const r = solveExactly(pos, never);
    t.ok(r, `${e.id}: solved`);
    if (r === null) continue;
    t.equal(r.exactScore, e.exactScore, `${e.id}: exactScore`);
    t.ok(e.bestMoves.includes(notation(r.move)), `${e.id}: ${notation(r.move)} is one of bestMoves ${e.bestMoves}`);
    // Proven-score encoding: WIN_SCORE - plies to the end (negated for a loss, 0 for a draw).
    const sign = Math.sign(e.exactScore);
    t.equal(Math.sign(r.score), sign, `${e.id}: outcome`);
    if (sign !== 0) t.equal(provenPlies(r.score), r.pv.length, `${e.id}: plies = pv length`);

    // The PV is a legal line to the end of the game that produces the exact score.
    const side = pos.side;
    for (const move of r.pv) {
      t.equal(pos.terminal(), NOT_TERMINAL);
      if (!legalMoves(pos).includes(move)) {
        t.fail(`${e.id}: illegal pv move ${notation(move)}`);
        break;
      }
      pos.makeMove(move);
    }
    t.not(pos.terminal(), NOT_TERMINAL, `${e.id}: pv ends the game`);
    const final = pos.finalScore() * (pos.side === side ? 1 : -1);
    t.equal(final, e.exactScore, `${e.id}: pv reaches the exact score`);
  }
});

t.test('value of every move (endgames up to 15 empties)', async (t) => {
  for (const e of endgames.filter((x) => x.empties <= MOVE_VALUES_MAX_EMPTIES)) {
    const pos = positionOf(e.board, e.turn);
    const moves = legalMoves(pos);
    t.same(moves.map(notation).sort(), Object.keys(e.moveValues).sort(), `${e.id}: moveValues lists the legal moves`);
    for (const move of moves) {
      pos.makeMove(move);
      const child = solveExactly(pos, never);
      pos.unmakeMove(move);
      t.equal(child === null ? null : -child.exactScore!, e.moveValues[notation(move)], `${e.id}: moveValues.${notation(move)}`);
    }
  }
});

t.test('engine.solve: null when too many empties for the time, or when stopped', async (t) => {
  const start = startPosition();
  t.equal(engine.solve!(start, { deadline: Date.now() + 1000, shouldStop: () => false }), null, '60 empties: no solve');
  const e = endgames.find((x) => x.empties === 18)!;
  const pos = positionOf(e.board, e.turn);
  t.equal(engine.solve!(pos, { deadline: Date.now() + 2, shouldStop: () => false }), null, '18 empties in 2 ms: not attempted');
  let polls = 0;
  const stopped = engine.solve!(pos, { deadline: Date.now() + 60_000, shouldStop: () => ++polls > 1 });
  t.equal(stopped, null, 'abandoned when shouldStop turns true');
  t.ok(polls >= 2, 'shouldStop was polled');
  const solved = engine.solve!(pos, { deadline: Date.now() + 60_000, shouldStop: () => false });
  t.equal(solved?.exactScore, e.exactScore, 'solved with time (endgames.json exactScore)');
  t.equal(pos.ply, 0, 'position untouched');
});

t.test('a position where the side to move must pass', async (t) => {
  // vectors.json v189-pass: White has no move, Black has h8; the solver's line is pass, h8.
  const pos = positionOf(['BBBBBBBW', 'BBBWBBBW', 'BBWWBWWW', 'BBBBWWWW', 'BBBWBWWB', 'BBBBWWWW', 'BBBBBWWW', 'WWWWWWW.'], 'W');
  const r = solveExactly(pos, never)!;
  t.equal(notation(r.move), 'pass');
  t.equal(r.pv.length, 2, 'pass then the last disc');
  pos.makeMove(r.pv[0]);
  pos.makeMove(r.pv[1]);
  t.equal(pos.side, 1, 'white to move again, game over');
  t.equal(pos.finalScore(), r.exactScore, 'exact score is the final count for white');
  t.equal(r.score, r.exactScore! > 0 ? WIN_SCORE - 2 : r.exactScore! < 0 ? -(WIN_SCORE - 2) : 0);
});

t.test('a selective pass only guesses; forgetBounds keeps its moves for the exact search', async (t) => {
  const e = endgames.find((x) => x.empties === 15)!;
  const pos = positionOf(e.board, e.turn);
  const s = pos.side << 1;
  const [pl, ph, ol, oh] = [pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s]];
  const solver = new EndgameSolver();
  solver.clearTable();
  solver.width = 1;
  const guess = solver.solve(pl, ph, ol, oh, -65, 65, null);
  t.ok(Math.abs(guess) <= 64 && guess % 2 === 0, `a score-like guess (${guess})`);
  const move = solver.tableMove(pl, ph, ol, oh);
  t.ok(move >= 0, 'the selective pass stored a move');
  solver.forgetBounds();
  t.equal(solver.tableMove(pl, ph, ol, oh), move, 'moves kept');
  solver.width = 64;
  t.equal(solver.solve(pl, ph, ol, oh, -65, 65, null), e.exactScore, 'exact once the bounds are gone');
});

t.test('how many empties the solve hook takes on, by time available', async (t) => {
  // The issue aims at 20 empties within 1 s; without a deadline (fixed depth) it stops at 20 too.
  t.equal(solvableEmpties(1000), 20);
  t.equal(solvableEmpties(Infinity), 20);
  t.ok(solvableEmpties(5) < solvableEmpties(100), 'fewer empties when time is short');
  let previous = 0;
  for (const ms of [0, 10, 50, 100, 500, 1000, 5000, 10_000, 60_000]) {
    t.ok(solvableEmpties(ms) >= previous, `non-decreasing at ${ms} ms`);
    previous = solvableEmpties(ms);
  }
});
