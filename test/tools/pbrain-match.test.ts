/**
 * pbrain-match's openings (tools/pbrain-match.ts): the balance test by Kibitz's own fixed-depth score, and the replay
 * of a record's openings with its seeds and pair numbers (so a new record pairs with the old one).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random } from '../../src/core/random.js';
import { TranspositionTable } from '../../src/search/tt.js';
import { BALANCE_WINDOW, KIBITZ_BRAIN, openingScore, randomOpening, recordOpenings, type RecordedGame } from '../../tools/pbrain-match.js';
import { UNTRACKED_NODE, untracked } from '../support/untracked.js';
import { fromRoot } from '../support/paths.js';

const TOOL = fromRoot('dist/tools/pbrain-match.js');

t.test('balanced openings: every one scores inside the window, the same ones for the same seed', async (t) => {
  const balance = { depth: 6, low: -300, high: 300 };
  const tt = new TranspositionTable(4);
  const first = [0, 1, 2];
  const rng = new Random(600);
  const openings = first.map(() => randomOpening(20, 3, 3, rng, 0, balance));
  for (const opening of openings) {
    const score = openingScore(20, 0, opening, balance.depth, tt);
    t.ok(score >= -300 && score <= 300, `${JSON.stringify(opening)} scores ${score}`);
    t.equal(openingScore(20, 0, opening, balance.depth, tt), score, 'a fixed depth on a fresh table: the same score');
  }
  const again = new Random(600);
  t.same(first.map(() => randomOpening(20, 3, 3, again, 0, balance)), openings, 'the same seed, the same openings');
  // Without the test the first random opening without threats comes back; the balanced ones are a subset of those.
  const plain = new Random(600);
  const unbalanced = Array.from({ length: 30 }, () => JSON.stringify(randomOpening(20, 3, 3, plain, 0)));
  t.ok(openings.every((o) => unbalanced.includes(JSON.stringify(o))), 'drawn from the same random openings');
  t.ok(unbalanced.some((o) => !openings.map((x) => JSON.stringify(x)).includes(o)), 'some openings fail the test');
  t.throws(() => randomOpening(20, 3, 3, new Random(1), 0, { depth: 1, low: 400_000, high: 500_000 }), /no opening within 2000 tries/);
  t.same(BALANCE_WINDOW, [-900, 2100]);
});

t.test("a record's openings: each pair once, in order, with its seed and pair number", async (t) => {
  const game = (g: number, seed: number, opening: [number, number][]): RecordedGame => ({ game: g, seed, black: 'A', winner: 0, reason: 'five', opening });
  const a: [number, number][] = [[9, 9], [10, 10], [8, 8]];
  const b: [number, number][] = [[9, 9], [10, 11], [8, 7]];
  const games = [game(1, 5, a), game(2, 5, a), game(3, 5, b), game(4, 5, b), game(1, 6, b), game(2, 6, b)];
  t.same(recordOpenings(games), [
    { seed: 5, pair: 0, opening: a },
    { seed: 5, pair: 1, opening: b },
    { seed: 6, pair: 0, opening: b },
  ]);
});

t.test('--openings-from replays a record: the new games carry its seed and game numbers', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-replay-'));
  try {
    const source = join(dir, 'source.jsonl');
    const opening: [number, number][] = [[7, 7], [0, 14], [8, 8]];
    const lines = [3, 4].map((g) => JSON.stringify({ game: g, seed: 42, black: 'A', white: 'B', winner: 0, reason: 'five', opening, moves: opening }));
    writeFileSync(source, `${lines.join('\n')}\n`);
    const out = join(dir, 'replayed.jsonl');
    const brain = `${UNTRACKED_NODE} ${KIBITZ_BRAIN}`;
    const [command, args] = untracked('node', [TOOL, '--black', brain, '--white', brain, '--turn-ms', '0', '--openings-from', source, '--record', out]);
    const run = spawnSync(command, args, { encoding: 'utf8', timeout: 50_000 });
    t.equal(run.status, 0, run.stderr);
    const games = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RecordedGame);
    t.same(games.map((g) => [g.seed, g.game]), [[42, 3], [42, 4]]);
    t.same(games.map((g) => g.opening), [opening, opening]);
    t.match(run.stdout, /over 1 opening pairs/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

t.test('bad balance and replay options: one line, exit 2', async (t) => {
  for (const [args, message] of [
    [['--balanced-window', '0,10'], '--balanced-window needs --balanced-depth'],
    [['--balanced-depth', '4', '--balanced-window', '10,0'], "--balanced-window must be LO,HI with LO <= HI, got '10,0'"],
    [['--balanced-depth', '4', '--balanced-window', 'x'], "--balanced-window must be LO,HI with LO <= HI, got 'x'"],
    [['--openings-from', '/nonexistent/record.jsonl'], "--openings-from: no record file '/nonexistent/record.jsonl'"],
    [['--openings-from', TOOL, '--balanced-depth', '4'], "--openings-from replays a record's openings: it takes no --balanced-depth"],
    [['--openings-from', TOOL], `--openings-from: line 1 of '${TOOL}' is not JSON`],
    [['--openings-from', '/dev/null'], "--openings-from: '/dev/null' holds no game"],
  ] as const) {
    const [command, argv] = untracked('node', [TOOL, ...args]);
    const run = spawnSync(command, argv, { encoding: 'utf8' });
    t.equal(run.status, 2, args.join(' '));
    t.equal(run.stderr.trim(), `pbrain-match: ${message} (try --help)`);
  }
});
