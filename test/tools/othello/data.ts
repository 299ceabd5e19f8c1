/**
 * The Othello training-data tool (tools/othello-data.ts): self-play records and their relabelling
 * by a deeper search, and the positions of played games.
 */
import t from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluatorFor } from '../../../src/games/othello/profiles.js';
import { solveExactly } from '../../../src/games/othello/solver.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import {
  NO_SCORE,
  RECORD_INTS,
  R_EMPTIES,
  R_EXACT,
  R_GAME,
  R_OUTCOME,
  RECORD_GAME_BASE,
  R_SEARCH,
  generateGames,
  loadRecords,
  playGame,
  readGameMoves,
  recordPositions,
  relabelChunks,
  relabelRecords,
  startPosition,
} from '../../../tools/othello-data.js';

const OPTIONS = { openMin: 2, openMax: 4, depth: 1, epsilon: 0.1, solveEmpties: 10, profile: 'default', probCut: 0, seed: 3 };

t.test('a self-play game: one record per position, exact values from the solve point on', async (t) => {
  const records = playGame(7, OPTIONS, new Searcher(new TranspositionTable(10)));
  const count = records.length / RECORD_INTS;
  t.ok(count >= 56 && count <= 64, `${count} positions`);
  t.equal(records[R_EMPTIES], 60, 'the first record is the start position');
  let exact = 0;
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    t.equal(records[r + R_GAME], 7);
    if (records[r + R_EXACT] === 1) {
      exact++;
      t.ok(records[r + R_EMPTIES] <= 10, 'exact only from the solve point');
    }
  }
  t.ok(exact >= 9, `${exact} exact records`);
  const last = records.length - RECORD_INTS;
  const pos = startPosition();
  pos.setup(records[last], records[last + 1], records[last + 2], records[last + 3], 0);
  const moves = new Int32Array(64);
  const n = pos.generateMoves(moves, 0);
  t.ok(n >= 1, 'the last record still has a move');
  t.same(playGame(7, OPTIONS, new Searcher(new TranspositionTable(10))), records, 'deterministic for a game number');
});

t.test('--siblings: after the game, exact records of children of other moves than the line\'s', async (t) => {
  const plain = playGame(7, OPTIONS, new Searcher(new TranspositionTable(10)));
  t.same(playGame(7, { ...OPTIONS, siblings: 0 }, new Searcher(new TranspositionTable(10))), plain, 'siblings 0: the records as before');
  const records = playGame(7, { ...OPTIONS, siblings: 1 }, new Searcher(new TranspositionTable(10)));
  t.same(records.subarray(0, plain.length), plain, 'the game itself is unchanged');
  const line = new Set<string>();
  for (let r = 0; r < plain.length; r += RECORD_INTS) line.add(Array.from(plain.subarray(r, r + 4)).join(','));
  const pos = startPosition();
  let siblings = 0;
  for (let r = plain.length; r < records.length; r += RECORD_INTS) {
    siblings++;
    t.equal(records[r + R_EXACT], 1, 'exact');
    t.equal(records[r + R_GAME], 7, 'same game number (held out with its game)');
    t.ok(records[r + R_EMPTIES] < 10, 'a child of a position of the solver\'s line');
    t.notOk(line.has(Array.from(records.subarray(r, r + 4)).join(',')), 'not a position of the line');
    pos.setup(records[r], records[r + 1], records[r + 2], records[r + 3], 0);
    t.equal(records[r + R_OUTCOME], solveExactly(pos, null)!.exactScore, 'its exact value, for the side to move');
  }
  t.ok(siblings >= 5, `${siblings} sibling records`);
});

t.test('relabel: non-exact records get the deeper search score, exact records are untouched', async (t) => {
  const records = playGame(2, OPTIONS, new Searcher(new TranspositionTable(10)));
  const copy = records.slice();
  relabelRecords(copy, 2, 'default', new Searcher(new TranspositionTable(10)));
  const pos = startPosition();
  pos.evaluator = evaluatorFor('default');
  const fresh = new Searcher(new TranspositionTable(10));
  let relabelled = 0;
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    if (records[r + R_EXACT] === 1) {
      t.same(copy.subarray(r, r + RECORD_INTS), records.subarray(r, r + RECORD_INTS), 'exact record unchanged');
      continue;
    }
    t.equal(copy[r + R_OUTCOME], records[r + R_OUTCOME], 'the outcome is kept');
    pos.setup(records[r], records[r + 1], records[r + 2], records[r + 3], 0);
    fresh.tt.clear();
    t.equal(copy[r + R_SEARCH], fresh.search(pos, { maxDepth: 2 }).score, `record ${r / RECORD_INTS}: the depth-2 score`);
    t.not(copy[r + R_SEARCH], NO_SCORE);
    relabelled++;
  }
  t.ok(relabelled >= 40, `${relabelled} records relabelled`);
});

t.test('relabel --probcut: 0 is a full-width search, 1.5 the ProbCut search (depth 6, where the table cuts)', async (t) => {
  const records = playGame(4, OPTIONS, new Searcher(new TranspositionTable(10)));
  const pos = startPosition();
  pos.evaluator = evaluatorFor('default');
  const searcher = new Searcher(new TranspositionTable(10));
  let checked = 0;
  let differing = 0;
  for (let r = 0; r < records.length && checked < 12; r += RECORD_INTS) {
    if (records[r + R_EXACT] === 1) continue;
    const one = (probCut: number): number => {
      const record = records.slice(r, r + RECORD_INTS);
      relabelRecords(record, 6, 'default', new Searcher(new TranspositionTable(10)), probCut);
      return record[R_SEARCH];
    };
    pos.setup(records[r], records[r + 1], records[r + 2], records[r + 3], 0);
    const scores = [0, 1.5].map((probCut) => {
      pos.probCutConfidence = probCut;
      searcher.tt.clear();
      const score = one(probCut);
      t.equal(score, searcher.search(pos, { maxDepth: 6 }).score, `record ${r / RECORD_INTS}, probCut ${probCut}`);
      return score;
    });
    if (scores[0] !== scores[1]) differing++;
    checked++;
  }
  t.equal(checked, 12);
  // Measured: 3 of these 12 positions (records 1, 2 and 8 of this game) score differently with cuts.
  t.ok(differing > 0, `${differing} of 12 records differ between the two`);
});

t.test('chunk files: generate, relabel by part, resume without redoing, load', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-data-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const games = join(dir, 'games');
  const out = join(dir, 'relabelled');
  const lines: string[] = [];
  generateGames(games, 3, 2, 0, 1, OPTIONS, (line) => lines.push(line));
  t.same(readdirSync(games).sort(), ['chunk-000000.bin', 'chunk-000001.bin']);
  const all = loadRecords(games);
  t.equal(all[R_GAME], 0);
  t.equal(all[all.length - RECORD_INTS + R_GAME], 2, 'games 0..2 in order');
  relabelChunks(games, out, 1, 'default', 1, 2, (line) => lines.push(line));
  t.same(readdirSync(out), ['chunk-000001.bin'], 'part 2/2 owns the second chunk');
  const before = readFileSync(join(out, 'chunk-000001.bin'));
  relabelChunks(games, out, 1, 'default', 0, 1, (line) => lines.push(line));
  t.same(readdirSync(out).sort(), ['chunk-000000.bin', 'chunk-000001.bin']);
  t.same(readFileSync(join(out, 'chunk-000001.bin')), before, 'a finished chunk is not redone');
  t.equal(loadRecords(out).length, all.length, 'same records, relabelled');
  t.equal(lines.length, 4, 'one line per chunk written');
});

t.test('relabel by part owns chunks by number: a chunk another part has not written yet shifts nothing', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-data-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const games = join(dir, 'games');
  generateGames(games, 3, 1, 0, 1, OPTIONS, () => {});
  rmSync(join(games, 'chunk-000001.bin'));
  const first = join(dir, 'part1');
  const second = join(dir, 'part2');
  relabelChunks(games, first, 1, 'default', 0, 2, () => {});
  relabelChunks(games, second, 1, 'default', 1, 2, () => {});
  t.same(readdirSync(first).sort(), ['chunk-000000.bin', 'chunk-000002.bin'], 'part 1/2: the even chunks');
  t.same(readdirSync(second), [], 'part 2/2: chunk 1 is not there yet, and chunk 2 is not its');
});

// Two games of Kibitz against NTest depth 21 from the same eight-ply opening (the first two of the twenty-third round's
// main record, tools/records/othello-ntest/o23-main-1000-n21.jsonl): both share their first nine moves. Both engines
// solve 12 empties exactly, so each game's result is its 12-empty position's value: a draw, and Kibitz (White) losing by 4.
const GAME_A = 'd3 c5 e6 f5 f6 d2 c2 f4 f3 e7 c3 c4 e3 f2 b4 g3 d1 g4 g6 d6 b6 b5 e2 g5 h4 e1 h3 h5 h6 a4 f7 b3 d8 g2 c7 c6 a5 g8 f8 a3 ' +
  'h1 h2 g1 e8 f1 a6 h8 h7 b2 g7 d7 a1 b1 c1 a2 c8 b8 b7 a7 a8';
const GAME_B = 'd3 c5 e6 f5 f6 d2 c2 f4 f3 g4 g3 g6 h4 e7 c3 f2 d6 g5 b4 c4 b3 c7 d7 b5 c6 f7 a6 c8 f8 e8 h5 b6 f1 c1 e3 e2 d8 g8 h6 g7 ' +
  'a7 a5 a4 h7 d1 e1 b1 b7 h8 h3 b2 a3 g2 h1 b8 g1 a2 a1 h2 a8';

t.test('records: each distinct position of played games once, outcomes from the solve point, a chunk per game', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-data-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'games.jsonl');
  writeFileSync(file, [GAME_A, GAME_B].map((moves) => JSON.stringify({ opening: 0, moves: moves.split(' '), points: 0.5 })).join('\n') + '\n');
  const games = readGameMoves(file);
  t.same(games.map((g) => g.length), [60, 60]);
  const lines: string[] = [];
  // Game A: 48 positions from 60 to 13 empties and the exact one at 12; game B: the same less the 10 positions of the
  // shared nine moves (60 to 51 empties).
  t.equal(recordPositions(games, join(dir, 'out'), 1, 12, (line) => lines.push(line)), 49 + 39);
  t.same(readdirSync(join(dir, 'out')).sort(), ['chunk-000000.bin', 'chunk-000001.bin']);
  t.equal(lines.length, 2);
  const records = loadRecords(join(dir, 'out'));
  const keys = new Set<string>();
  const pos = startPosition();
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    const i = r / RECORD_INTS;
    keys.add(Array.from(records.subarray(r, r + 4)).join(','));
    t.equal(records[r + R_GAME], RECORD_GAME_BASE + (i < 49 ? 0 : 1), `record ${i}: its game's number`);
    t.equal(records[r + R_SEARCH], NO_SCORE, 'no search score before relabel');
    const exact = i === 48 || i === 87;
    t.equal(records[r + R_EXACT], exact ? 1 : 0, `record ${i}: exact only at the solve point`);
    if (exact) {
      t.equal(records[r + R_EMPTIES], 12);
      pos.setup(records[r], records[r + 1], records[r + 2], records[r + 3], 0);
      t.equal(records[r + R_OUTCOME], solveExactly(pos, null)!.exactScore, 'the solver\'s value');
    }
  }
  t.equal(keys.size, 88, 'no position twice');
  t.equal(records[R_EMPTIES], 60, 'the start position first');
  t.equal(records[48 * RECORD_INTS + R_OUTCOME], 0, 'game A: a draw from 12 empties');
  t.equal(records[49 * RECORD_INTS + R_EMPTIES], 50, 'game B starts after the shared moves');
  t.equal(records[87 * RECORD_INTS + R_OUTCOME], 4, 'game B: Black, to move at 12 empties, wins by 4');
  // 50 empties: ten plies played, Black to move again: the value is Black's.
  t.equal(records[49 * RECORD_INTS + R_OUTCOME], 4, 'game B\'s earlier positions take the value for their side to move');
  t.equal(records[50 * RECORD_INTS + R_OUTCOME], -4, 'and White\'s the negation');
});

t.test('records: a move that is not legal, a record that stops early, a line without moves', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-data-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.throws(() => recordPositions([['d3', 'd3']], join(dir, 'a'), 1, 12, () => {}), /game 0: illegal move 'd3'/);
  t.throws(() => recordPositions([['d3', 'z9']], join(dir, 'b'), 1, 12, () => {}), /game 0: illegal move 'z9'/);
  t.throws(() => recordPositions([GAME_A.split(' ').slice(0, 20)], join(dir, 'c'), 1, 0, () => {}), /ends before the game does/);
  const finished = GAME_A.split(' ');
  t.throws(() => recordPositions([[...finished, 'pass']], join(dir, 'd'), 1, 0, () => {}), /a move after the end/);
  t.equal(recordPositions([finished], join(dir, 'e'), 1, 0, () => {}), 60, 'solve point 0: every position, the final score');
  t.equal(loadRecords(join(dir, 'e'))[R_OUTCOME], 0, 'a draw');
  const file = join(dir, 'bad.jsonl');
  writeFileSync(file, '{"moves":["d3"]}\n\n{"opening":1}\n');
  t.throws(() => readGameMoves(file), /bad\.jsonl:3: no 'moves' list/);
  const openings = join(dir, 'openings.jsonl');
  writeFileSync(openings, [3, 4, 5, 6].map((opening) => JSON.stringify({ opening, moves: [`o${opening}`] })).join('\n'));
  t.same(readGameMoves(openings, [4, 5]), [['o3'], ['o6']], '--exclude-openings 4-5 leaves out the games of openings 4 and 5');
  t.same(readGameMoves(openings).length, 4, 'none left out by default');
});
