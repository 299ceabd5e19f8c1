/**
 * Othello Multi-ProbCut: the committed table loads and validates, ProbCut never changes exact
 * results (the solver's, or the generic search's when it reaches the end), and at a fixed depth it
 * searches fewer nodes on a set of midgame positions.
 */
import t from 'tap';
import { engine } from '../../../src/games/othello/index.js';
import type { OthelloPosition } from '../../../src/games/othello/position.js';
import {
  DEFAULT_PROBCUT,
  type ProbCutFile,
  buildProbCutTable,
  probCutProbe,
  probCutTable,
} from '../../../src/games/othello/probcut.js';
import data from '../../../src/games/othello/probcut.json' with { type: 'json' };
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { fixture, legalMoves, positionOf, startPosition, type Endgame } from './helpers.js';

const file = data as ProbCutFile;

t.test('the committed table loads, validates and says how it was made', async (t) => {
  const table = probCutTable();
  t.ok(file.about.includes('npm run othello-probcut'), 'about names the command');
  t.ok(table.maxDepth >= 8, 'fitted at least to depth 8');
  let usable = 0;
  for (let d = 0; d <= table.maxDepth; d++) {
    const s = table.shallowOf[d];
    if (s < 0) continue;
    t.ok(s < d && (d - s) % 2 === 0, `depth ${d}: shallow ${s} is shallower, same parity`);
    for (let stage = 0; stage < table.stages; stage++) if (table.params[(d * table.stages + stage) * 3 + 2] > 0) usable++;
  }
  t.ok(usable >= 10, `${usable} usable (depth, stage) fits`);
  t.equal(DEFAULT_PROBCUT >= 0, true, 'the default confidence is a number of standard deviations, 0 = off');
});

t.test('bad tables are rejected with the field named', async (t) => {
  const good = file.pairs[0];
  const base = { about: 'x', stageWidth: file.stageWidth, stages: file.stages };
  const badFit = good.fits.map(() => [-1, 0, 100, 50]);
  t.throws(() => buildProbCutTable({ ...base, pairs: [{ ...good, fits: badFit }] }), /slope/);
  t.throws(() => buildProbCutTable({ ...base, pairs: [{ ...good, shallow: good.depth }] }), /shallow/);
  t.throws(() => buildProbCutTable({ ...base, pairs: [good, good] }), /twice/);
  t.throws(() => buildProbCutTable({ ...base, pairs: [{ ...good, fits: good.fits.slice(1) }] }), /fits must have/);
  t.throws(() => buildProbCutTable({ ...base, stageWidth: 0, pairs: [good] }), /stageWidth/);
  t.throws(() => buildProbCutTable({ ...base, pairs: [] }), /pairs/);
  const nanFit = good.fits.map(() => [1, Number.NaN, 100, 50]);
  t.throws(() => buildProbCutTable({ ...base, pairs: [{ ...good, fits: nanFit }] }), /finite/);
});

t.test('the probe: off at confidence 0, never near the end, margin scales with confidence', async (t) => {
  const table = probCutTable();
  const out = new Float64Array(3);
  t.equal(probCutProbe(table, 0, 6, 40, out), -1, 'confidence 0: off');
  t.equal(probCutProbe(table, 1.5, 6, 9, out), -1, 'the deep search would reach the end: no probe');
  t.equal(probCutProbe(table, 1.5, table.maxDepth + 1, 40, out), -1, 'deeper than the table: no probe');
  const s = probCutProbe(table, 1, 6, 35, out);
  t.ok(s >= 0 && s < 6, 'a midgame probe');
  const margin = out[2];
  probCutProbe(table, 2, 6, 35, out);
  t.equal(out[2], 2 * margin, 'margin = confidence * sigma');
});

/** Midgame positions: each opening line played on with the first legal move (deterministic). */
function midgamePositions(count: number, plies: number): OthelloPosition[] {
  const out: OthelloPosition[] = [];
  for (let k = 0; k < count; k++) {
    const pos = startPosition();
    for (let ply = 0; ply < plies; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      pos.makeMove(moves[(ply * 7 + k * 3) % moves.length]);
    }
    out.push(pos);
  }
  return out;
}

function withProbCut(pos: OthelloPosition, confidence: number): OthelloPosition {
  return engine.restore(engine.snapshot(pos), { probCut: confidence });
}

t.test('at a fixed depth ProbCut searches fewer nodes', async (t) => {
  const searcher = new Searcher(new TranspositionTable(8));
  let off = 0;
  let on = 0;
  let cuts = 0;
  for (const pos of midgamePositions(8, 20)) {
    searcher.tt.clear();
    off += searcher.search(withProbCut(pos, 0), { maxDepth: 7 }).nodes;
    t.equal(searcher.probCuts, 0, 'no cut when off');
    searcher.tt.clear();
    on += searcher.search(withProbCut(pos, 1.5), { maxDepth: 7 }).nodes;
    cuts += searcher.probCuts;
  }
  t.ok(cuts > 0, `${cuts} cuts`);
  t.ok(on < off, `nodes with ProbCut ${on} < without ${off}`);
});

t.test('ProbCut never changes exact results', async (t) => {
  const endgames = fixture<{ positions: Endgame[] }>('endgames.json').positions.filter((e) => e.empties <= 15);
  const searcher = new Searcher(new TranspositionTable(8));
  for (const e of endgames) {
    const pos = positionOf(e.board, e.turn);
    // The exact solver, through analyse (the service's path), with ProbCut on at a low confidence.
    const solved = analyse(engine, withProbCut(pos, 0.5), searcher, { deadline: Date.now() + 600_000 });
    t.equal(solved.exactScore, e.exactScore, `${e.id}: solver's exact score with ProbCut on`);
    if (e.empties > 12) continue;
    // The generic search to the end: no probe where the search reaches the end of the game.
    searcher.tt.clear();
    const on = searcher.search(withProbCut(pos, 0.5), { maxDepth: e.empties + 2 });
    searcher.tt.clear();
    const off = searcher.search(withProbCut(pos, 0), { maxDepth: e.empties + 2 });
    t.equal(on.score, off.score, `${e.id}: generic search to the end, same score`);
    t.equal(on.exact, off.exact, `${e.id}: same exactness`);
  }
});
