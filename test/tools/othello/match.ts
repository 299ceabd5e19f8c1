/**
 * othello-match's record summaries (the paired, game-by-game difference of two runs), and a short match against
 * Kibitz's own NBoard adapter standing in for NTest.
 */
import t from 'tap';
import { UNTRACKED_NODE, untracked } from '../../support/untracked.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MatchGame,
  describeLimit,
  formatPaired,
  formatStageTimes,
  limitsFor,
  pairedDifference,
  pairedReport,
  parseOpenings,
  runMatch,
  summarise,
  timesByEmpties,
} from '../../../tools/othello-match.js';

function game(opening: number, kibitz: 'B' | 'W', points: number, discs: number): MatchGame {
  return {
    opening,
    kibitz,
    moves: [],
    points,
    discs,
    kibitzMoves: 30,
    kibitzSeconds: 3,
    engineMoves: 30,
    engineSeconds: 0.3,
    engineOwnSeconds: 0.2,
  } as MatchGame;
}

t.test('pairs games by opening and colour, ignoring games only one run has', async (t) => {
  const first = [game(0, 'B', 0, -10), game(0, 'W', 1, 4), game(1, 'B', 0.5, 0), game(2, 'B', 1, 8)];
  const second = [game(0, 'W', 1, 6), game(0, 'B', 1, 2), game(1, 'B', 0, -4), game(3, 'W', 1, 20)];
  const d = pairedDifference(first, second);
  t.equal(d.games, 3);
  // Differences: (0,B) +1 / +12, (0,W) 0 / +2, (1,B) -0.5 / -4.
  t.equal(d.points, 0.5 / 3);
  t.equal(d.discs, 10 / 3);
  const sd = Math.sqrt(([1, 0, -0.5].reduce((a, x) => a + (x - 0.5 / 3) ** 2, 0) / 2) / 3);
  t.equal(d.pointsError, 1.96 * sd);
  t.equal(formatPaired(d).split(':')[0], 'paired over 3 games (second - first)');
  t.match(formatPaired(d), /\+16\.7 ± \d+\.\d points, \+3\.3 ± \d+\.\d discs/);
});

t.test('--paired reports each record\'s score and time a move, then the paired difference', async (t) => {
  // Each game: Kibitz 3 s over 30 moves (100 ms), the engine 0.3 s wall (10 ms); depth 40 over 2 searches in the second.
  const deeper = { ...game(0, 'B', 1, 4), kibitzDepthSum: 40, kibitzSearches: 2 };
  const lines = pairedReport('a.jsonl', [game(0, 'B', 0, -2)], 'b.jsonl', [deeper]);
  t.equal(lines.length, 5);
  t.match(lines[0], /^A a\.jsonl: \+0 =0 -1 \(1 games\)/);
  t.match(lines[1], /^ {2}time per move: Kibitz 100 ms \(mean depth 0\.0 where not solved, .*engine 10 ms wall/);
  t.match(lines[3], /^ {2}time per move: Kibitz 100 ms \(mean depth 20\.0 where not solved/);
  t.equal(lines[4], formatPaired(pairedDifference([game(0, 'B', 0, -2)], [deeper])));
});

t.test('no common game: zero games, no error bar', async (t) => {
  const d = pairedDifference([game(0, 'B', 1, 2)], [game(0, 'W', 0, -2)]);
  t.same(d, { games: 0, points: 0, pointsError: 0, discs: 0, discsError: 0 });
});

t.test('summarise counts results, sides and time per move', async (t) => {
  const s = summarise([game(0, 'B', 1, 10), game(0, 'W', 0.5, 0), game(1, 'B', 0, -6)]);
  t.same([s.wins, s.draws, s.losses, s.games], [1, 1, 1, 3]);
  t.equal(s.score, 0.5);
  t.same(s.asBlack, { points: 1, games: 2 });
  t.equal(s.kibitzMsPerMove, 100);
  t.ok(Math.abs(s.engineMsPerMove - 10) < 1e-9, 'engine ms per move');
  t.ok(Number.isNaN(s.kibitzCpuMsPerMove), 'no game recorded its CPU time');
});

t.test('Kibitz\'s CPU time a move counts only the games that recorded it', async (t) => {
  // 30 moves with 1.5 s CPU and 30 with 0.6 s: 2.1 s over 60 moves = 35 ms; the older game without the field is left out.
  const timed = (cpu: number): MatchGame => ({ ...game(0, 'B', 1, 2), kibitzCpuSeconds: cpu });
  const s = summarise([timed(1.5), { ...timed(0.6), kibitz: 'W' }, game(1, 'B', 0, -2)]);
  t.ok(Math.abs(s.kibitzCpuMsPerMove - 35) < 1e-9, `${s.kibitzCpuMsPerMove} ms`);
});

t.test('runMatch against an NBoard engine (Kibitz\'s own adapter): --part plays its share, numbered as in the whole list', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-othello-tool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const record = `${dir}/part.jsonl`;
  const options = {
    // --max-seconds 1: the adapter's endgame solves are timed (half a second at most), not untimed up to 20
    // empties, which made this the second-longest test of the suite.
    engine: `${UNTRACKED_NODE} ${process.cwd()}/dist/src/adapters/nboard.js --depth 1 --max-seconds 1`,
    engineDepth: 1,
    profile: 'default',
    limit: { nodes: 2000 }, // a node limit skips the untimed endgame solve of a fixed depth: a short test
    openings: parseOpenings('f5d6c3\nf5f6e6\n'),
    ttMb: 1,
    record,
    part: { part: 1, parts: 2 },
  };
  const games = await runMatch(options, () => {});
  t.same(
    games.map((g) => [g.opening, g.kibitz]),
    [
      [1, 'B'],
      [1, 'W'],
    ],
    'opening 2 of 2 (number 1), both colours',
  );
  for (const g of games) {
    t.same(g.moves.slice(0, 3), options.openings[g.opening], 'each game starts with its opening');
    t.ok(g.moves.length >= 40, `a whole game: ${g.moves.length} moves`);
    t.ok([0, 0.5, 1].includes(g.points) && Math.sign(g.discs) === Math.sign(2 * g.points - 1), 'points agree with discs');
    t.ok(g.kibitzCpuSeconds !== undefined && g.kibitzCpuSeconds > 0, 'the game records Kibitz\'s CPU time');
    t.equal(g.moveMs?.length, g.moves.length - 3, 'a time for every move after the opening');
    const stages = timesByEmpties([g]);
    t.equal(stages.reduce((a, s) => a + s.kibitzMoves, 0), g.kibitzMoves, 'the stages hold each of Kibitz\'s moves once');
  }
  const again = await runMatch(options, () => {});
  t.equal(again.length, 2, 'rerun with the same record plays nothing new');
  t.equal(readFileSync(record, 'utf8').trim().split('\n').length, 2);
});

t.test('a game clock: each game charges Kibitz\'s moves to one bank and records what is left', async (t) => {
  t.equal(describeLimit({ gameMs: 1500 }), 'a game clock of 1500 ms');
  // A move's deadline is its share of the clock left: 1900 ms at 56 empties is 19 shares of 100 ms.
  const before = Date.now();
  const ahead = limitsFor({ gameMs: 1500 }, 1900, 56).deadline! - before;
  t.ok(ahead >= 100 && ahead <= 100 + 1000, `deadline ${ahead} ms ahead`);
  const fixed = limitsFor({ ms: 700 }, 1900, 56).deadline! - Date.now();
  t.ok(fixed > 500 && fixed <= 700, `a budget a move ignores the clock: ${fixed} ms ahead`);
  const options = {
    engine: `${UNTRACKED_NODE} ${process.cwd()}/dist/src/adapters/nboard.js --depth 1 --max-seconds 1`,
    engineDepth: 1,
    profile: 'default',
    limit: { gameMs: 1500 },
    openings: parseOpenings('f5d6c3\n'),
    ttMb: 1,
  };
  const games = await runMatch(options, () => {});
  t.equal(games.length, 2, 'one opening, both colours');
  for (const g of games) {
    t.ok(g.kibitzClockLeftMs !== undefined, 'the record keeps the clock left');
    // What the moves took and what is left make the bank (to the rounding of the record).
    t.ok(Math.abs(1000 * g.kibitzSeconds + g.kibitzClockLeftMs! - 1500) <= 0.5, `${g.kibitzSeconds} s used, ${g.kibitzClockLeftMs} ms left`);
    t.ok(g.moves.length >= 40, `a whole game: ${g.moves.length} moves`);
  }
});

t.test('per-move times by the empties before the move, each side apart, passes skipped', async (t) => {
  // Kibitz Black after a 2-move opening: c3 at 58 empties (100 ms), a forced pass, d3 at 57 (300 ms), the engine's c4 at 56.
  const early = { ...game(0, 'B', 1, 2), moves: ['f5', 'd6', 'c3', 'pass', 'd3', 'c4'], moveMs: [100, 0, 300, 50] };
  // Kibitz White after 42 placeholder moves: the engine at 18 empties (7 ms), Kibitz at 17 (9 ms): the last stage.
  const late = { ...game(1, 'W', 0, -2), moves: [...Array<string>(42).fill('a1'), 'b1', 'c1'], moveMs: [7, 9] };
  const stages = timesByEmpties([early, late, game(2, 'B', 0, 0)]);
  t.same(stages, [
    { low: 56, high: 59, kibitzMoves: 2, kibitzMs: 200, engineMoves: 1, engineMs: 50 },
    { low: 0, high: 19, kibitzMoves: 1, kibitzMs: 9, engineMoves: 1, engineMs: 7 },
  ]);
  t.same(formatStageTimes(stages).slice(1), ['56-59 | 200 (2) | 50 (1)', '0-19 | 9 (1) | 7 (1)']);
  t.match(formatStageTimes(timesByEmpties([game(2, 'B', 0, 0)]))[0], /^no per-move times/);
});

t.test('--times prints a record\'s table; a missing record is a usage error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-times-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const record = join(dir, 'r.jsonl');
  const early = { ...game(0, 'B', 1, 2), moves: ['f5', 'd6', 'c3', 'd3', 'c4'], moveMs: [100, 300, 50] };
  writeFileSync(record, `${JSON.stringify(early)}\n`);
  const run = (args: string[]) => spawnSync(...untracked(process.execPath, ['dist/tools/othello-match.js', ...args]), { encoding: 'utf8' });
  const ok = run(['--times', record]);
  t.equal(ok.status, 0);
  // c3 (Kibitz, 58 empties), d3 (the engine, 57), c4 (Kibitz, 56): one stage.
  t.same(ok.stdout.trim().split('\n').slice(1), ['56-59 | 75 (2) | 300 (1)']);
  const missing = run(['--times', join(dir, 'none.jsonl')]);
  t.equal(missing.status, 2);
  t.match(missing.stderr.trim(), /^[^\n]*--times: no record file/);
});
