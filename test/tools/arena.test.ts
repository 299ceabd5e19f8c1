import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { describeStats, eloFromScore, runArena, type GameRecord } from '../../tools/arena.js';
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
