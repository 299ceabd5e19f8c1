/**
 * npm run levels-calibrate -- --game mnk [--pairs 50] [--chunk 10] [--ms 50] [--seed 1] [--results FILE] [--out FILE]
 *                          [--seed-levels 1] [--fit-only]
 *
 * Measures the playing levels of one game (src/levels/): the arena plays every adjacent pair of levels
 * (1-2, 2-3, ..., up to the top level, the full engine at --ms per move) and the seed engine (at the same
 * --ms) against the levels named by --seed-levels, from seeded random openings with colours swapped.
 * Pairs are played in rounds of --chunk openings, each round on fresh openings, so a run cut short still
 * covers every pair. Every round's result is appended to --results (JSON lines); after each round the
 * ratings are fitted to all results of the game (maximum likelihood of the Elo model, a draw half a
 * win, the seed engine fixed at 0; 95% error bars from the inverse Fisher information) and the game's
 * table is written into --out, which the catalogue serves. --fit-only refits from --results alone.
 * --only replays chosen pairs (their rounds from runs with another --seed are dropped); rounds already
 * recorded with this --seed are skipped, so the same command resumes a stopped run.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ParsedArgs, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { findGame } from '../src/games/registry.js';
import type { GameId } from '../src/games/types.js';
import { TOP_LEVEL, type GameLevelTable } from '../src/levels/levels.js';
import { parseParams, runArena } from './arena.js';

export const DEFAULT_OUT = fileURLToPath(new URL('../../src/levels/elo.json', import.meta.url));
/** The parameters each game's table is measured with (mnk: gomoku 15x15, five in a row). */
export const TABLE_PARAMS: Readonly<Record<GameId, string>> = { mnk: 'm=15&n=15&k=5', othello: '', tablut: '', hadron: '' };

/** One round of one pair: A's wins, draws and losses against B. */
export interface PairResult {
  readonly game: string;
  readonly params: string;
  readonly ms: number;
  readonly a: string;
  readonly b: string;
  readonly seed: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

export interface Rating {
  readonly player: string;
  readonly elo: number;
  /** 95% error bar relative to the anchor. */
  readonly error: number;
}

export interface Fit {
  readonly ratings: Rating[];
  /** Covariance of the ratings (Elo squared), in the order of `ratings`; the anchor's row is zero. */
  readonly covariance: number[][];
}

const LOG10_OVER_400 = Math.log(10) / 400;

/**
 * Maximum-likelihood Elo ratings of the players from pairwise scores (a draw is half a win), the
 * anchor fixed at 0, by Newton's method on the log-likelihood; the covariance is the inverse of the
 * observed information. A player who won or lost everything is held by a weak prior (one draw
 * against each opponent played, as bayeselo does), so the fit always exists.
 */
export function fitElo(players: readonly string[], results: readonly PairResult[], anchor: string): Fit {
  const index = new Map(players.map((p, i) => [p, i]));
  const n = players.length;
  const points = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const games = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const r of results) {
    const i = index.get(r.a);
    const j = index.get(r.b);
    if (i === undefined || j === undefined) continue;
    const played = r.wins + r.draws + r.losses;
    points[i][j] += r.wins + r.draws / 2;
    points[j][i] += r.losses + r.draws / 2;
    games[i][j] += played;
    games[j][i] += played;
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && games[i][j] > 0) {
        points[i][j] += 0.5;
        games[i][j] += 1;
      }
    }
  }
  const anchorIndex = index.get(anchor)!;
  const free = players.map((_, i) => i).filter((i) => i !== anchorIndex);
  const r = new Array<number>(n).fill(0);
  let hessianInverse: number[][] = [];
  for (let iteration = 0; iteration < 100; iteration++) {
    const gradient = new Array<number>(n).fill(0);
    const info = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j || games[i][j] === 0) continue;
        const p = 1 / (1 + Math.exp(-LOG10_OVER_400 * (r[i] - r[j])));
        gradient[i] += LOG10_OVER_400 * (points[i][j] - games[i][j] * p);
        const w = games[i][j] * p * (1 - p) * LOG10_OVER_400 * LOG10_OVER_400;
        info[i][i] += w;
        info[i][j] -= w;
      }
    }
    const reduced = free.map((i) => free.map((j) => info[i][j]));
    hessianInverse = invert(reduced);
    let step = 0;
    free.forEach((i, a) => {
      const delta = free.reduce((sum, j, b) => sum + hessianInverse[a][b] * gradient[j], 0);
      r[i] += delta;
      step = Math.max(step, Math.abs(delta));
    });
    if (step < 1e-6) break;
  }
  const covariance = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  free.forEach((i, a) => free.forEach((j, b) => (covariance[i][j] = hessianInverse[a][b])));
  const ratings = players.map((player, i) => ({ player, elo: r[i], error: 1.96 * Math.sqrt(covariance[i][i]) }));
  return { ratings, covariance };
}

/** Gauss-Jordan inverse of a small symmetric positive definite matrix. */
export function invert(matrix: readonly (readonly number[])[]): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) pivot = r;
    if (Math.abs(a[pivot][c]) < 1e-12) throw new Error('the results do not connect every player');
    [a[c], a[pivot]] = [a[pivot], a[c]];
    const scale = a[c][c];
    for (let k = 0; k < 2 * n; k++) a[c][k] /= scale;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r][c];
      if (f !== 0) for (let k = 0; k < 2 * n; k++) a[r][k] -= f * a[c][k];
    }
  }
  return a.map((row) => row.slice(n));
}

/** '1-2' -> 'level1|level2', 'seed-1' -> 'seed|level1'. */
export function pairKey(text: string): string {
  const m = /^(seed|\d+)-(\d+)$/.exec(text.trim());
  if (m === null) throw new UsageError(`--only lists pairs such as 1-2 or seed-1, got '${text}'`);
  const name = (part: string): string => (part === 'seed' ? 'seed' : levelName(Number(part)));
  return `${name(m[1])}|${name(m[2])}`;
}

export function levelName(level: number): string {
  return `level${level}`;
}

/** The players of a game's table: the seed engine, then level 1 to the top. */
export function tablePlayers(): string[] {
  return ['seed', ...Array.from({ length: TOP_LEVEL }, (_, i) => levelName(i + 1))];
}

/** The pairs a calibration plays: each adjacent pair of levels, and the seed engine against the given levels. */
export function schedule(seedLevels: readonly number[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let level = 1; level < TOP_LEVEL; level++) pairs.push([levelName(level), levelName(level + 1)]);
  for (const level of seedLevels) pairs.push(['seed', levelName(level)]);
  return pairs;
}

/** The game's table from its results (only pairs that were played count). */
export function buildTable(game: GameId, ms: number, results: readonly PairResult[], command: string): GameLevelTable {
  const players = tablePlayers();
  const fit = fitElo(players, results, 'seed');
  const byPair = new Map<string, { a: string; b: string; games: number; points: number }>();
  for (const r of results) {
    const key = `${r.a}|${r.b}`;
    const entry = byPair.get(key) ?? { a: r.a, b: r.b, games: 0, points: 0 };
    entry.games += r.wins + r.draws + r.losses;
    entry.points += r.wins + r.draws / 2;
    byPair.set(key, entry);
  }
  const pairs = [...byPair.values()].map(({ a, b, games, points }) => ({ a, b, games, score: Math.round((1000 * points) / games) / 1000 }));
  const levels = fit.ratings
    .filter((rating) => rating.player !== 'seed')
    .map((rating) => ({ level: Number(rating.player.slice('level'.length)), elo: Math.round(rating.elo), error: Math.round(rating.error) }));
  return { params: TABLE_PARAMS[game], msPerMove: ms, pairs, levels, command };
}

/** Gap of each level over the one below, with the 95% error bar of the difference. */
export function levelGaps(fit: Fit): { level: number; gap: number; error: number }[] {
  const out: { level: number; gap: number; error: number }[] = [];
  // ratings: seed at 0, then level 1 at index 1...
  for (let i = 2; i < fit.ratings.length; i++) {
    const c = fit.covariance;
    const variance = c[i][i] + c[i - 1][i - 1] - 2 * c[i][i - 1];
    out.push({ level: i, gap: fit.ratings[i].elo - fit.ratings[i - 1].elo, error: 1.96 * Math.sqrt(Math.max(0, variance)) });
  }
  return out;
}

export function readResults(file: string, game: string, ms: number): PairResult[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PairResult)
    .filter((r) => r.game === game && r.ms === ms && r.params === TABLE_PARAMS[game as GameId]);
}

/** Round seeds of one run: --seed S plays its rounds with seeds S*1000, S*1000+1, ... */
export function roundSeed(seed: number, round: number): number {
  return seed * 1000 + round;
}

/**
 * The lines of a results file to keep before a run of `game` with --seed `seed` plays the pairs `only`:
 * those pairs' rounds from other runs are dropped (they were played with the level's old settings);
 * every other line, and the rounds this run already played (it resumes), are kept.
 */
export function keptLines(lines: readonly string[], game: string, ms: number, seed: number, only: ReadonlySet<string>): string[] {
  return lines.filter((line) => {
    if (line.trim() === '') return false;
    const r = JSON.parse(line) as PairResult;
    if (r.game !== game || r.ms !== ms || r.params !== TABLE_PARAMS[game as GameId] || !only.has(`${r.a}|${r.b}`)) return true;
    return Math.floor(r.seed / 1000) === seed;
  });
}

/** Writes one game's table into the data file (read again just before, so parallel runs of other games are kept). */
export function writeTable(out: string, game: GameId, table: GameLevelTable): void {
  const data = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as { games: Record<string, unknown> }) : { games: {} };
  data.games[game] = table;
  const sorted = Object.fromEntries(Object.keys(data.games).sort().map((id) => [id, data.games[id]]));
  const temporary = `${out}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ games: sorted }, null, 2)}\n`);
  renameSync(temporary, out);
}

const spec = {
  name: 'levels-calibrate',
  usage: `npm run levels-calibrate -- --game mnk [--pairs 50] [--chunk 10] [--ms 50] [--seed 1] [--results FILE] [--out FILE]
                         [--seed-levels 1] [--fit-only] [--only 1-2,2-3,seed-1]

Measures the playing levels of one game: every adjacent pair of levels (1-2, ..., ${TOP_LEVEL - 1}-${TOP_LEVEL}; level ${TOP_LEVEL}
is the full engine at --ms per move, the others play by node limits) and the seed engine (at --ms)
against the levels in --seed-levels (comma-separated), --pairs openings per pair, colours swapped,
in rounds of --chunk openings. Each round is appended to --results (default levels-results.jsonl in
the working directory); after each round the Elo fit (seed engine = 0, 95% error bars) is printed
and written into --out (default src/levels/elo.json, which the catalogue serves). Games: mnk (15x15,
five in a row), othello, tablut, hadron. --fit-only refits and writes from --results alone. --only
plays just the listed pairs, after a level's settings changed: their rounds from runs with another
--seed are dropped from --results first. Rounds already in --results with this --seed are skipped,
so the same command resumes a run that was stopped.

  --help  this text`,
  options: {
    game: { type: 'string' },
    pairs: { type: 'string' },
    chunk: { type: 'string' },
    ms: { type: 'string' },
    seed: { type: 'string' },
    results: { type: 'string', default: 'levels-results.jsonl' },
    out: { type: 'string' },
    'seed-levels': { type: 'string', default: '1' },
    'fit-only': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  const game = values.game;
  if (game === undefined || findGame(game) === undefined) throw new UsageError(`--game must be one of ${Object.keys(TABLE_PARAMS).join(', ')}`);
  const id = game as GameId;
  const pairs = intOption(values, 'pairs', 50, 1, 10000);
  const chunk = intOption(values, 'chunk', 10, 1, 10000);
  const ms = intOption(values, 'ms', 50, 1, 60000);
  const seed = intOption(values, 'seed', 1, 0, 1_000_000);
  const seedLevels = values['seed-levels']!.split(',').map((text) => {
    const level = Number(text);
    if (!Number.isInteger(level) || level < 1 || level > TOP_LEVEL) {
      throw new UsageError(`--seed-levels must list levels from 1 to ${TOP_LEVEL}, got '${text}'`);
    }
    return level;
  });
  const only = values.only === undefined ? undefined : new Set(values.only.split(',').map((pair) => pairKey(pair)));
  const resultsFile = values.results!;
  const out = values.out ?? DEFAULT_OUT;
  const params = TABLE_PARAMS[id];
  const command =
    `npm run levels-calibrate -- --game ${id} --pairs ${pairs} --chunk ${chunk} --ms ${ms} --seed ${seed} --seed-levels ${seedLevels.join(',')}` +
    (values.only === undefined ? '' : ` --only ${values.only}`);
  const report = (): void => {
    const results = readResults(resultsFile, id, ms);
    if (results.length === 0) return;
    const table = buildTable(id, ms, results, command);
    writeTable(out, id, table);
    const fit = fitElo(tablePlayers(), results, 'seed');
    for (const rating of fit.ratings) console.log(`  ${rating.player.padEnd(8)} ${rating.elo.toFixed(0).padStart(6)} ± ${rating.error.toFixed(0)}`);
    for (const gap of levelGaps(fit)) console.log(`  level ${gap.level} - ${gap.level - 1}: ${gap.gap.toFixed(0)} ± ${gap.error.toFixed(0)}`);
    for (const pair of table.pairs) console.log(`  ${pair.a} vs ${pair.b}: ${pair.games} games, ${(100 * pair.score).toFixed(1)}%`);
  };
  if (values['fit-only']) {
    report();
    return;
  }
  if (only !== undefined && existsSync(resultsFile)) {
    const lines = readFileSync(resultsFile, 'utf8').split('\n');
    const kept = keptLines(lines, id, ms, seed, only);
    if (kept.length < lines.filter((line) => line.trim() !== '').length) writeFileSync(resultsFile, kept.map((line) => `${line}\n`).join(''));
  }
  const done = new Set(readResults(resultsFile, id, ms).map((r) => `${r.a}|${r.b}|${r.seed}`));
  const rounds = Math.ceil(pairs / chunk);
  for (let round = 0; round < rounds; round++) {
    const openings = Math.min(chunk, pairs - round * chunk);
    for (const [a, b] of schedule(seedLevels)) {
      if (only !== undefined && !only.has(`${a}|${b}`)) continue;
      const thisSeed = roundSeed(seed, round);
      if (done.has(`${a}|${b}|${thisSeed}`)) continue;
      const started = Date.now();
      const r = runArena({
        game: id,
        a,
        b,
        pairs: openings,
        depth: undefined,
        ms,
        openingPlies: 4,
        seed: thisSeed,
        params: parseParams(params),
        maxPlies: 400,
        verbose: false,
      });
      const result: PairResult = { game: id, params, ms, a, b, seed: thisSeed, wins: r.wins, draws: r.draws, losses: r.losses };
      appendFileSync(resultsFile, `${JSON.stringify(result)}\n`);
      console.log(`round ${round + 1}/${rounds} ${a} vs ${b}: +${r.wins} =${r.draws} -${r.losses} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    report();
  }
}

runCliIfMain(import.meta.url, spec, main);
