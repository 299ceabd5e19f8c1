import t from 'tap';
import { Random } from '../../src/core/random.js';
import { definition as mnk } from '../../src/games/mnk/index.js';
import type { SearchPosition } from '../../src/games/types.js';
import { WIN_PROB_CURVES } from '../../src/analysis/winprob.js';
import { GAMES } from '../../src/games/registry.js';
import { LEVEL_SETTINGS, MAX_LEVEL_EXACT_EMPTIES, MIN_LEVEL, TOP_LEVEL, checkedSettings, levelSetting } from '../../src/levels/levels.js';
import { drawLine, losesAtOnce, playLevel } from '../../src/levels/play.js';
import { Searcher } from '../../src/search/search.js';
import { TranspositionTable } from '../../src/search/tt.js';
import { fixture, notation, positionOf, type Endgame } from '../games/othello/helpers.js';
import { fitElo, keptLines, levelGaps, pairKey, roundSeed, schedule, type PairResult } from '../../tools/levels-calibrate.js';

/** O has a four on row 7 (cols 3-6) that X blocked at 7,2; X to move must play 7,7 or lose at once. */
function four(): SearchPosition {
  const board = Array.from({ length: 15 }, () => '.'.repeat(15).split(''));
  for (const col of [3, 4, 5, 6]) board[7][col] = 'O';
  for (const [row, col] of [[7, 2], [3, 9], [10, 12], [12, 1]]) board[row][col] = 'X';
  const state = { m: 15, n: 15, k: 5, board: board.map((row) => row.join('')), turn: 'X' };
  const decoded = mnk.decodeState(state, undefined);
  if (!decoded.ok) throw new Error(decoded.error.message);
  return decoded.value;
}

t.test('the level range is the same in every game and the top level has no settings', async (t) => {
  t.equal(MIN_LEVEL, 1);
  t.ok(TOP_LEVEL >= 8, 'at least 8 levels');
  for (const rows of Object.values(LEVEL_SETTINGS)) t.equal(rows.length, TOP_LEVEL - 1);
  t.equal(levelSetting('mnk', TOP_LEVEL), undefined);
  t.equal(levelSetting('mnk', undefined), undefined);
  t.same(levelSetting('othello', 1), LEVEL_SETTINGS.othello[0]);
});

t.test('drawLine: temperature 0 takes the best, a large loss is (nearly) never drawn', async (t) => {
  t.equal(drawLine([0.4, 0.7, 0.5], 0, new Random(1)), 1);
  const counts = [0, 0, 0];
  const random = new Random(7);
  for (let i = 0; i < 2000; i++) counts[drawLine([0.6, 0.58, 0.1], 0.05, random)]++;
  // Weights 1, exp(-0.4) = 0.67, exp(-10) = 0.00005: about 60% / 40% / 0%.
  t.ok(counts[0] > 1050 && counts[0] < 1350, `best drawn ${counts[0]} of 2000`);
  t.ok(counts[1] > 650 && counts[1] < 950, `second drawn ${counts[1]} of 2000`);
  t.ok(counts[2] <= 2, `the blunder drawn ${counts[2]} of 2000`);
});

t.test('losesAtOnce sees the four; a guarded level always blocks it, and a seed repeats its move', async (t) => {
  const pos = four();
  const cell = (row: number, col: number) => row * 15 + col;
  const buffer = new Int32Array(2 * pos.maxMoves);
  t.equal(losesAtOnce(pos, cell(0, 0), buffer), true, 'a far move lets O make five');
  t.equal(losesAtOnce(pos, cell(7, 7), buffer), false, 'the block holds');
  const hash = [pos.hashLo, pos.hashHi];
  t.same([pos.hashLo, pos.hashHi], hash, 'the position is restored');
  const guarded = LEVEL_SETTINGS.mnk.findIndex((row) => row.guard) + 1;
  t.ok(guarded >= 2 && guarded <= 4, 'the guard starts at a low-middle level');
  const searcher = new Searcher(new TranspositionTable(1));
  const setting = levelSetting('mnk', guarded)!;
  for (let seed = 0; seed < 8; seed++) {
    const result = playLevel(mnk.engine, pos, searcher, setting, WIN_PROB_CURVES.mnk, seed);
    t.equal(result.move, cell(7, 7), `seed ${seed}: blocks`);
  }
  const a = playLevel(mnk.engine, pos, searcher, levelSetting('mnk', 1)!, WIN_PROB_CURVES.mnk, 99);
  const b = playLevel(mnk.engine, pos, searcher, levelSetting('mnk', 1)!, WIN_PROB_CURVES.mnk, 99);
  t.same([a.move, a.nodes, a.pv], [b.move, b.nodes, b.pv], 'the same seed gives the same move');
});

t.test('a guarded level takes a win in one', async (t) => {
  const board = Array.from({ length: 15 }, () => '.'.repeat(15).split(''));
  for (const col of [3, 4, 5, 6]) board[7][col] = 'X';
  for (const [row, col] of [[2, 2], [3, 9], [10, 12], [12, 1]]) board[row][col] = 'O';
  const decoded = mnk.decodeState({ m: 15, n: 15, k: 5, board: board.map((row) => row.join('')), turn: 'X' }, undefined);
  if (!decoded.ok) throw new Error(decoded.error.message);
  const searcher = new Searcher(new TranspositionTable(1));
  const guarded = LEVEL_SETTINGS.mnk.findIndex((row) => row.guard) + 1;
  for (let seed = 0; seed < 5; seed++) {
    const move = playLevel(mnk.engine, decoded.value, searcher, levelSetting('mnk', guarded)!, WIN_PROB_CURVES.mnk, seed).move;
    t.ok([7 * 15 + 2, 7 * 15 + 7].includes(move), `seed ${seed}: five in a row`);
  }
});

t.test('the Elo fit recovers a known difference with an error bar that shrinks with games', async (t) => {
  const results = (games: number): PairResult[] => [
    // 76% is 200 Elo; 64% is 100 Elo.
    { game: 'x', params: '', ms: 1, a: 'b', b: 'a', seed: 1, wins: 0.76 * games, draws: 0, losses: 0.24 * games },
    { game: 'x', params: '', ms: 1, a: 'c', b: 'b', seed: 1, wins: 0.64 * games, draws: 0, losses: 0.36 * games },
  ];
  const fit = fitElo(['a', 'b', 'c'], results(10000), 'a');
  t.equal(fit.ratings[0].elo, 0, 'the anchor');
  t.ok(Math.abs(fit.ratings[1].elo - 200) < 3, `b ${fit.ratings[1].elo}`);
  t.ok(Math.abs(fit.ratings[2].elo - 300) < 5, `c ${fit.ratings[2].elo}`);
  const small = fitElo(['a', 'b', 'c'], results(100), 'a');
  // One pair of 100 games at 76%: sd of the score 0.043, 1.96 sd is about 70 Elo at this slope.
  t.ok(small.ratings[1].error > 55 && small.ratings[1].error < 90, `b's error ${small.ratings[1].error}`);
  t.ok(small.ratings[2].error > small.ratings[1].error, 'errors add along the chain');
  const gaps = levelGaps({ ratings: small.ratings, covariance: small.covariance });
  t.ok(Math.abs(gaps[0].gap - (small.ratings[2].elo - small.ratings[1].elo)) < 1e-9);
  t.throws(() => fitElo(['a', 'b', 'c'], results(100).slice(0, 1), 'a'), /connect/);
});

t.test('the schedule and --only pairs', async (t) => {
  const pairs = schedule([1]);
  t.equal(pairs.length, TOP_LEVEL);
  t.same(pairs[0], ['level1', 'level2']);
  t.same(pairs[pairs.length - 1], ['seed', 'level1']);
  t.equal(pairKey('seed-1'), 'seed|level1');
  t.equal(pairKey(' 2-3'), 'level2|level3');
  t.throws(() => pairKey('a-b'), /--only/);
});

t.test('--only drops the listed pairs of other runs and keeps this run\'s rounds (resume)', async (t) => {
  const line = (game: string, a: string, b: string, seed: number): string =>
    JSON.stringify({ game, params: '', ms: 100, a, b, seed, wins: 1, draws: 0, losses: 1 });
  const lines = [
    line('othello', 'level1', 'level2', roundSeed(1, 0)), // old run of a replayed pair: dropped
    line('othello', 'level1', 'level2', roundSeed(7, 3)), // this run's round: kept
    line('othello', 'level2', 'level3', roundSeed(1, 0)), // a pair not replayed: kept
    line('hadron', 'level1', 'level2', roundSeed(1, 0)), // another game: kept
    '',
  ];
  const kept = keptLines(lines, 'othello', 100, 7, new Set([pairKey('1-2')]));
  t.same(kept, [lines[1], lines[2], lines[3]]);
  t.equal(roundSeed(7, 3), 7003);
});

t.test('settings: exactEmpties is a small whole number, used only where the engine solves within empties', async (t) => {
  const row = { nodes: 100, depth: 0, lines: 2, temperature: 0.1, guard: true };
  const file = (extra: object) => ({ games: Object.fromEntries(Object.keys(GAMES).map((id) => [id, [{ ...row, ...extra }]])) });
  t.equal(checkedSettings(file({})).othello[0].exactEmpties, undefined, 'absent: never');
  t.equal(checkedSettings(file({ exactEmpties: MAX_LEVEL_EXACT_EMPTIES })).othello[0].exactEmpties, MAX_LEVEL_EXACT_EMPTIES);
  for (const bad of [-1, 1.5, MAX_LEVEL_EXACT_EMPTIES + 1, '12']) {
    t.throws(() => checkedSettings(file({ exactEmpties: bad })), /games\.mnk\[0\] is not a valid level/, `exactEmpties ${String(bad)}`);
  }
  for (const [id, rows] of Object.entries(LEVEL_SETTINGS)) {
    if (GAMES[id as keyof typeof GAMES].engine.solveWithin !== undefined) continue;
    t.ok(rows.every((r) => (r.exactEmpties ?? 0) === 0), `${id}: no exactEmpties without a solver`);
  }
});

t.test('an Othello level with exactEmpties plays the proven-best move of a 12-empty endgame, a level without it may not', async (t) => {
  // e10 of the reference endgames (test/fixtures/othello, solved by two independent engines): g2 wins by 2,
  // b3 draws, every other move loses.
  const e = fixture<{ positions: Endgame[] }>('endgames.json').positions.find((p) => p.id === 'e10')!;
  const pos = positionOf(e.board, e.turn);
  t.equal(pos.empties, 12);
  const engine = GAMES.othello.engine;
  const searcher = new Searcher(new TranspositionTable(1));
  const solving = LEVEL_SETTINGS.othello.findIndex((row) => (row.exactEmpties ?? 0) >= 12) + 1;
  t.ok(solving >= 2 && solving < TOP_LEVEL, `level ${solving} solves 12 empties`);
  for (let seed = 0; seed < 4; seed++) {
    const result = playLevel(engine, pos, searcher, levelSetting('othello', solving)!, WIN_PROB_CURVES.othello, seed);
    t.same([notation(result.move), result.exactScore, result.stopReason], ['g2', 2, 'proven'], `seed ${seed}: the exact endgame`);
  }
  const a = playLevel(engine, pos, searcher, levelSetting('othello', solving)!, WIN_PROB_CURVES.othello, 5);
  const b = playLevel(engine, pos, searcher, levelSetting('othello', solving)!, WIN_PROB_CURVES.othello, 5);
  t.same([a.move, a.nodes, a.pv], [b.move, b.nodes, b.pv], 'the same request and seed give the same move');
  t.equal(LEVEL_SETTINGS.othello[0].exactEmpties ?? 0, 0, 'level 1 has no exact endgame');
  const moves = new Set<string>();
  for (let seed = 0; seed < 12; seed++) moves.add(notation(playLevel(engine, pos, searcher, levelSetting('othello', 1)!, WIN_PROB_CURVES.othello, seed).move));
  t.ok([...moves].some((move) => move !== 'g2'), `level 1 played ${[...moves].join(', ')}`);
  for (const move of moves) t.ok(move in e.moveValues, `${move} is legal`);
});
