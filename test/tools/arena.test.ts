import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { decodeLine, describePlies, describeStats, eloFromScore, loadBuild, runArena, type GameRecord } from '../../tools/arena.js';
import { fromRoot } from '../support/paths.js';
import { findGame } from '../../src/games/registry.js';
import { NOT_TERMINAL } from '../../src/search/score.js';

t.test('arena: a perfect tic-tac-toe player never loses to random, colours swapped', async (t) => {
  const r = runArena(
    {
      game: 'mnk',
      a: 'default',
      b: 'random',
      pairs: 3,
      depth: 9,
      ms: undefined,
      openingPlies: 0,
      seed: 7,
      params: { m: 3, n: 3, k: 3 },
      maxPlies: 20,
      verbose: false,
    },
    () => {},
  );
  t.equal(r.games, 6);
  t.equal(r.wins + r.draws + r.losses, 6);
  t.equal(r.losses, 0, 'the empty 3x3 is a draw: exact play never loses');
  t.same(Object.keys(r.bySide), ['X', 'O']);
  t.equal(r.bySide.X.games, 3, 'each side played once per pair');
  t.equal(r.bySide.X.points + r.bySide.O.points, r.wins + r.draws / 2);
});

t.test('arena: --b-depth gives B its own depth', async (t) => {
  // Tablut at fixed depths, one opening pair cut at 24 plies: every search A or B finishes stops at its own depth.
  const result = runArena(
    { game: 'tablut', a: 'default', b: 'default', pairs: 1, depth: 3, bDepth: 1, ms: undefined, openingPlies: 2, seed: 5, params: {}, maxPlies: 24, verbose: false },
    () => {},
  );
  t.equal(result.games, 2);
  t.ok(result.statsA.searches > 10 && result.statsB.searches > 10, `searches counted (A ${result.statsA.searches}, B ${result.statsB.searches})`);
  t.equal(result.statsA.depthSum, 3 * result.statsA.searches, 'A searched 3 plies every time');
  t.equal(result.statsB.depthSum, result.statsB.searches, 'B searched 1 ply every time (--b-depth 1)');
});

t.test('Elo from score', async (t) => {
  t.equal(eloFromScore(0.5), 0);
  t.ok(Math.abs(eloFromScore(0.75) - 190.8) < 0.1, '75% is about +191 Elo');
  t.ok(eloFromScore(0.25) < 0);
});

t.test('arena: --record writes each game, replayable in the game notation', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-'));
  const file = join(dir, 'games.jsonl');
  const r = runArena(
    {
      game: 'mnk',
      a: 'default',
      b: 'random',
      pairs: 2,
      depth: 9,
      ms: undefined,
      openingPlies: 1,
      seed: 3,
      params: { m: 3, n: 3, k: 3 },
      maxPlies: 20,
      verbose: false,
      record: file,
    },
    () => {},
  );
  const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as GameRecord);
  rmSync(dir, { recursive: true });
  t.equal(records.length, 4, 'two pairs, two games each');
  t.same(
    records.map((g) => [g.pair, g.first, g.second]),
    [
      [1, 'default', 'random'],
      [1, 'random', 'default'],
      [2, 'default', 'random'],
      [2, 'random', 'default'],
    ],
  );
  t.same(records[0].opening, records[1].opening, 'a pair shares its opening');
  t.equal(records[0].opening.length, 1);
  // The records' results add up to the arena's: the default's points are its results as first and
  // one minus the results when random moved first.
  const points = records.reduce((sum, g) => sum + (g.first === 'default' ? g.result : 1 - g.result), 0);
  t.equal(points, r.wins + r.draws / 2);
  // Every game replays through the game's own move decoder to a finished game.
  const mnk = findGame('mnk')!;
  for (const g of records) {
    const state = mnk.initialState({ m: 3, n: 3, k: 3 });
    if (!state.ok) throw new Error('initial state');
    const decoded = mnk.decodeState(state.value, undefined);
    if (!decoded.ok) throw new Error('decode');
    const pos = decoded.value;
    for (const text of [...g.opening, ...g.moves]) {
      const move = mnk.decodeMove(pos, text, 'record');
      if (!move.ok) throw new Error(`${text}: ${move.error.message}`);
      pos.makeMove(move.value);
    }
    t.not(pos.terminal(), NOT_TERMINAL, `game ${g.pair} (${g.first} first) ends finished after ${g.moves.length} moves`);
  }
});

t.test('arena: timed play records the time per search; each player has its own time manager', async (t) => {
  const options = { game: 'mnk', a: 'default', b: 'default', pairs: 1, depth: undefined, ms: 30, openingPlies: 4, seed: 4, params: {}, maxPlies: 6 };
  const r = runArena({ ...options, verbose: false, aTime: 'adaptive', bTime: 'legacy' }, () => {});
  t.equal(r.games, 2);
  t.ok(r.statsA.searches > 0 && r.statsB.searches > 0, 'both searched against the clock');
  t.ok(r.statsA.msSum !== undefined && r.statsB.msSum !== undefined, 'time per search recorded');
  t.match(describeStats(r.statsA), /ms per search/);
  const fixed = runArena({ ...options, depth: 2, ms: undefined, verbose: false }, () => {});
  t.equal(fixed.statsA.msSum, undefined, 'fixed depth: no times (the statistics stay reproducible)');
});

t.test('arena: --b-build gives B another build, --opening-moves a fixed start; plies of the games won', async (t) => {
  // This build stands in for "another" one: B plays with the modules loaded from its dist/, by snapshot.
  const build = await loadBuild(fromRoot('.'));
  t.ok(build.name.length > 0);
  const dir = mkdtempSync(join(tmpdir(), 'arena-'));
  const file = join(dir, 'games.jsonl');
  // A tic-tac-toe line ("row,col") after which X, to move, wins at once on 0,2: both colours start here.
  const opening = ['0,0', '1,0', '0,1', '1,1'];
  const r = runArena(
    { game: 'mnk', a: 'default', b: 'default', pairs: 2, depth: 3, ms: undefined, openingPlies: 0, seed: 1, params: { m: 3, n: 3, k: 3 }, maxPlies: 9,
      verbose: false, record: file, bBuild: build, openingMoves: opening },
    () => {},
  );
  const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as GameRecord);
  rmSync(dir, { recursive: true });
  t.same(records.map((g) => g.opening), [opening, opening, opening, opening], 'every game starts from the given line');
  t.same(records.map((g) => g.second), [`default@${build.name}`, 'default', `default@${build.name}`, 'default'], 'B named by its build');
  t.same(records.map((g) => [g.moves.length, g.result]), [[1, 1], [1, 1], [1, 1], [1, 1]], 'the side to move wins at once');
  t.same([r.winPliesA, r.winPliesB], [[1, 1], [1, 1]]);
  t.equal(describePlies(r.winPliesA), 'mean 1.0, median 1, max 1 (2 games)');
  t.equal(describePlies([]), 'none');
  t.throws(() => decodeLine(findGame('mnk')!, { m: 3, n: 3, k: 3 }, ['0,0', '0,0']), /move 2 \(0,0\) is not legal/);
  await t.rejects(loadBuild(join(tmpdir(), 'no-such-build')), /holds no compiled Kibitz/);
});
