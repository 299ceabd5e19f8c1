/**
 * othello-judge: the summary's arithmetic on hand-made judged games (the expected numbers are worked out
 * in the comments), and the judging loop against an NBoard engine (Kibitz's own adapter at depth 1).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { UNTRACKED_NODE } from '../../support/untracked.js';
import type { MatchGame } from '../../../tools/othello-match.js';
import { parseOpenings } from '../../../tools/othello-match.js';
import { type JudgedGame, formatJudgeSummary, judgeGames, summariseJudged } from '../../../tools/othello-judge.js';

function game(kibitz: 'B' | 'W', moves: string[], points: number, discs: number, opening = 0): MatchGame {
  return { opening, kibitz, moves, points, discs, kibitzMoves: 0, kibitzSeconds: 0, engineMoves: 0, engineSeconds: 0, engineOwnSeconds: 0 };
}

t.test('summariseJudged: a pass, the last move and the stages', async (t) => {
  // Two opening plies, then Kibitz (Black) c3 at 58 empties, White d3 at 57, Black passes, White c4 (last).
  const short = game('B', ['f5', 'd6', 'c3', 'd3', 'pass', 'c4'], 0, -10);
  // Values for the side to move: Kibitz +2 before c3; White +1 before d3 (Kibitz -1: c3 gave away 3);
  // White +6 before c4 (after the pass, so d3 lost nothing); the end is +10 for White (c4 lost nothing).
  const judged: JudgedGame = { opening: 0, kibitz: 'B', from: 2, values: [2, 1, null, 6] };
  const s = summariseJudged([short], [judged]);
  t.equal(s.games, 1);
  t.same(s.stages, [], 'no position with 50 or fewer empties');
  t.same(s.phases[0], { low: 50, kibitzMoves: 1, engineMoves: 2, kibitzPerGame: 3, enginePerGame: 0 });
  t.ok(s.phases.slice(1).every((p) => p.kibitzMoves === 0 && p.engineMoves === 0), 'nothing in later phases');

  // 40 moves after two opening plies, no passes: the position before move i has 60 - i empties. Kibitz
  // (White, odd moves) is judged +1 until the move at 41 empties, then -3: that move gave away 4 discs.
  const moves = Array.from({ length: 42 }, (_, i) => `m${i}`);
  const values = Array.from({ length: 40 }, (_, k) => {
    const i = k + 2;
    const kibitzToMove = i % 2 === 1;
    const kibitzValue = 60 - i >= 41 ? 1 : -3;
    return kibitzToMove ? kibitzValue : -kibitzValue;
  });
  const long = summariseJudged([game('W', moves, 0, -3)], [{ opening: 0, kibitz: 'W', from: 2, values }]);
  t.same(
    long.stages.map((st) => [st.empties, st.judged, st.ahead.games, st.behind.games]),
    [
      [50, 1, 1, 0],
      [46, 1, 1, 0],
      [42, 1, 1, 0],
      [38, 0, 0, 1],
      [34, 0, 0, 1],
      [30, 0, 0, 1],
      [28, 0, 0, 1],
      [26, 0, 0, 1],
      [24, 0, 0, 1],
      [22, 0, 0, 1],
      [20, 0, 0, 1],
    ],
    'ahead down to 41 empties, behind from 40 on (the last position has 19 empties)',
  );
  t.same(
    long.stages.map((st) => [st.empties, st.kibitzWorsened, st.engineWorsened]),
    [[50, 0, 0], [46, 0, 0], [42, 1, 0], [38, 0, 0], [34, 0, 0], [30, 0, 0], [28, 0, 0], [26, 0, 0], [24, 0, 0], [22, 0, 0], [20, 0, 0]],
    'the move at 41 empties (in the row from 42 down to 39) turned the judged win (+1) into a loss (-3)',
  );
  t.same(
    long.phases.map((p) => [p.low, p.kibitzPerGame, p.enginePerGame]),
    [
      [50, 0, 0],
      [40, 4, 0],
      [30, 0, 0],
      [20, 0, 0],
      [10, 0, 0],
      [0, 0, 0],
    ],
    'the move at 41 empties gave away 4 discs; Black\'s last move (+3 before, +3 at the end) none',
  );
  t.same(long.phases.map((p) => p.kibitzMoves + p.engineMoves), [9, 10, 10, 10, 1, 0], 'every move counted once (58 down to 19 empties)');
  const text = formatJudgeSummary(long);
  t.equal(text[0], '1 games, Kibitz scored 0.0%');
  t.equal(text[2], '50 | 1 | 100.0% | 1 (0 points) | 0 (0 points) | 0 (0 points) | 0 | 0');
  t.equal(text[4], '42 | 1 | 100.0% | 1 (0 points) | 0 (0 points) | 0 (0 points) | 1 | 0');
  t.equal(text[text.length - 5], '40-49 | 4.00 (5) | 0.00 (5)');
  // A draw counts between a win and a loss: the engine's move at 22 empties (move 38) from a judged draw (0) to
  // the judge's +2 for Kibitz after it (the engine's -2) worsened its outcome; Kibitz's next move (+2 to +2) did not.
  const drawn = values.map((v, k) => (k + 2 === 38 ? 0 : k + 2 === 39 ? 2 : k + 2 === 40 ? -2 : v));
  const withDraw = summariseJudged([game('W', moves, 0, -3)], [{ opening: 0, kibitz: 'W', from: 2, values: drawn }]);
  t.same(withDraw.stages.find((st) => st.empties === 22), { ...withDraw.stages.find((st) => st.empties === 22), kibitzWorsened: 0, engineWorsened: 1 });
  // A judged game without its record, or a record game never judged, is left out.
  t.equal(summariseJudged([short], [{ ...judged, opening: 3 }]).games, 0);
});

t.test('judgeGames: one value per position after the opening, resumable, --part takes its share', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-othello-tool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = `${dir}/judged.jsonl`;
  const openings = parseOpenings('d3c5e6f5f6d2c2f4\n');
  // The first twelve moves of a recorded game (tools/records/othello-ntest/r8x-1000-n22.jsonl, game 1).
  const moves = ['d3', 'c5', 'e6', 'f5', 'f6', 'd2', 'c2', 'f4', 'f3', 'g4', 'g3', 'e2'];
  const record = [game('B', moves, 0, -18), game('W', moves, 0, -8)];
  const engine = `${UNTRACKED_NODE} ${process.cwd()}/dist/src/adapters/nboard.js --depth 1`;
  const printed: string[] = [];
  const second = await judgeGames({ engine, depth: 1, record, openings, out, part: { part: 1, parts: 2 } }, (line) => printed.push(line));
  t.same(second.map((j) => [j.kibitz, j.from, j.values.length]), [['W', 8, 4]], 'part 2 of 2: the second game only');
  t.ok(second[0].values.every((v) => typeof v === 'number' && Number.isFinite(v)), `a value for each position: ${second[0].values}`);
  t.same(printed, ['judged opening 0 (Kibitz W): 4 positions']);
  const all = await judgeGames({ engine, depth: 1, record, openings, out });
  t.same(all.map((j) => j.kibitz), ['W', 'B'], 'the rest judged, appended');
  t.equal(readFileSync(out, 'utf8').trim().split('\n').length, 2);
  // Nothing left to judge: the engine is not started (this command would fail).
  const again = await judgeGames({ engine: 'exit 3', depth: 1, record, openings, out });
  t.same(again, all);
  // A game of an opening the file does not have is refused before the engine starts.
  await t.rejects(judgeGames({ engine: 'exit 3', depth: 1, record: [game('B', moves, 0, 0, 5)], openings, out }), /opening 5: no such opening/);
});
