/**
 * Deadlines: the exact solver, the engine's solve hook and the whole analysis (solver then search)
 * stop on the wall clock and never answer late. The bounds below are generous slack for a loaded
 * machine, not performance thresholds: an answer that ignored its deadline would take seconds to
 * minutes here (a 20-empty exact solve, or a 50-empty one that never finishes).
 */
import t from 'tap';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { engine } from '../../../src/games/othello/index.js';
import { solveExactly } from '../../../src/games/othello/solver.js';
import { legalMoves, positionOf, startPosition } from './helpers.js';

const SLACK_MS = 1000;

function clock(ms: number): { deadline: number; shouldStop: () => boolean } {
  const deadline = Date.now() + ms;
  return { deadline, shouldStop: () => Date.now() >= deadline };
}

/** 20 empties, one of the slowest of the bench set (bench/games/othello.ts TWENTY_EMPTIES[1]). */
const TWENTY_EMPTIES = positionOf(['........', '....W...', '..BWWWWW', '.WWWWWWW', 'WWWWWBBW', '.WWBBBBW', '.BWWWBBW', 'BBBBBBBW'], 'B');

t.test('the exact solver gives up at the deadline on a position it cannot finish', async (t) => {
  const pos = startPosition();
  for (const m of [37, 43, 18]) pos.makeMove(m); // f5 d6 c3: 57 empties, far beyond any exact solve
  const started = Date.now();
  const r = solveExactly(pos, clock(100));
  const elapsed = Date.now() - started;
  t.equal(r, null, 'no answer once the time is up');
  t.ok(elapsed < 100 + SLACK_MS, `stopped after ${elapsed} ms (deadline 100 ms)`);
  t.equal(pos.ply, 3, 'position untouched');
});

t.test('the solve hook never answers after its deadline', async (t) => {
  for (const budget of [30, 300, 900]) {
    const ctx = clock(budget);
    const r = engine.solve!(TWENTY_EMPTIES, ctx);
    const late = Date.now() - ctx.deadline;
    t.ok(late < SLACK_MS, `budget ${budget} ms: ${r === null ? 'no answer (declined or stopped)' : 'solved'}, ${Math.max(0, late)} ms past the deadline`);
    if (r !== null) t.ok(legalMoves(TWENTY_EMPTIES).includes(r.move), 'a solved answer is a legal move');
  }
});

t.test('analyse (solver, then search) returns a legal move by the deadline', async (t) => {
  const searcher = new Searcher(new TranspositionTable(4));
  const cases = [
    { name: '20 empties', pos: TWENTY_EMPTIES, ms: 400 },
    { name: 'opening', pos: startPosition(), ms: 200 },
  ];
  for (const c of cases) {
    t.equal(c.pos.terminal(), NOT_TERMINAL);
    const deadline = Date.now() + c.ms;
    const r = analyse(engine, c.pos, searcher, { deadline });
    const late = Date.now() - deadline;
    t.ok(late < SLACK_MS, `${c.name}: answered ${Math.max(0, late)} ms past a ${c.ms} ms deadline`);
    t.ok(legalMoves(c.pos).includes(r.move), `${c.name}: legal move`);
    t.equal(c.pos.ply, 0, `${c.name}: position restored`);
  }
});

t.test('a cancelled analysis (client gone) stops at once and still names a move', async (t) => {
  const searcher = new Searcher(new TranspositionTable(4));
  const started = Date.now();
  // The pool's cancel flag turns on 50 ms in; the request's own deadline is a minute away.
  const r = analyse(engine, TWENTY_EMPTIES, searcher, { deadline: Date.now() + 60_000, shouldStop: () => Date.now() - started > 50 });
  t.ok(Date.now() - started < 50 + SLACK_MS, 'stopped long before the 60 s deadline');
  t.ok(legalMoves(TWENTY_EMPTIES).includes(r.move), 'legal move');
});
