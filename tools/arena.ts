/**
 * npm run arena -- --game othello --a default --b seed [--pairs 50] [--depth 4 | --ms 100] [--b-depth 3]
 *                  [--opening-plies 4] [--seed 1] [--params "m=9&n=9&k=5"] [--max-plies 400] [--verbose]
 *                  [--record games.jsonl] [--a-time adaptive|legacy] [--b-time adaptive|legacy] [--a-threads 1] [--b-threads 1]
 *                  [--b-build DIR] [--opening-moves "e3-d3 e2-e3 ..."]
 *
 * Plays engine configuration A against B from seeded random openings, each opening twice with the
 * colours swapped, and prints W/D/L for A with an Elo estimate and its 95% error bar. Profiles are the
 * games' evaluation profiles ('default', 'seed', ...) plus two baselines every game has: 'random'
 * (a uniformly random legal move) and 'greedy' (a one-ply search). --b-depth gives B its own fixed
 * depth, to measure what a ply of search is worth against an evaluation's knowledge. --record
 * appends one JSON line per game (pair, who played first, opening and game moves in the game's
 * notation, result for the first player), so lost games can be replayed and studied. With --ms each
 * move's budget starts when the player is asked (its restore included), like a request's arrival;
 * --a-time / --b-time pick a player's time manager ('legacy' is the rule before issue 18), to
 * measure one against the other at equal time per move. --b-build DIR lets B play with the engines and
 * search of another Kibitz build (DIR holds its package.json and compiled dist/, e.g. a copy of main's),
 * so a change is measured against the code it replaces. --opening-moves replaces the random openings by
 * one given line (a recorded game up to a position of interest), still played once with each colour.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Random } from '../src/core/random.js';
import { findGame } from '../src/games/registry.js';
import type { GameDefinition, SearchPosition } from '../src/games/types.js';
import { statusOf, legalMoveCodes } from '../src/http/game-service.js';
import { analyse } from '../src/search/analyse.js';
import { LazySmp } from '../src/pool/lazy-smp.js';
import { TIME_POLICIES, type TimePolicy } from '../src/search/timeman.js';
import { type ParsedArgs, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { MIN_LEVEL, TOP_LEVEL, levelSetting } from '../src/levels/levels.js';
import { playLevel } from '../src/levels/play.js';
import { WIN_PROB_CURVES } from '../src/analysis/winprob.js';

/** 'level3' -> 3; undefined for other profiles. Levels below the top play by node limits (src/levels/). */
export function profileLevel(profile: string): number | undefined {
  const m = /^level(\d+)$/.exec(profile);
  if (m === null) return undefined;
  const level = Number(m[1]);
  if (level < MIN_LEVEL || level > TOP_LEVEL) throw new UsageError(`${profile}: levels go from ${MIN_LEVEL} to ${TOP_LEVEL}`);
  return level;
}

export interface ArenaOptions {
  game: string;
  a: string;
  b: string;
  pairs: number;
  depth: number | undefined;
  /** B's fixed depth when it differs from A's (defaults to `depth`). */
  bDepth?: number;
  ms: number | undefined;
  openingPlies: number;
  seed: number;
  params: Record<string, unknown>;
  maxPlies: number;
  verbose: boolean;
  /** File to append one JSON line per game to (GameRecord). */
  record?: string;
  /** Time managers of A and B with --ms (default 'adaptive'). */
  aTime?: TimePolicy;
  bTime?: TimePolicy;
  /** Search threads of A and B (Lazy SMP, src/pool/lazy-smp.ts; default 1). */
  aThreads?: number;
  bThreads?: number;
  /** Another build's engines and search for B (--b-build); undefined: this build's. */
  bBuild?: EngineBuild;
  /** Every pair starts from these moves (the game's notation) instead of a random opening. */
  openingMoves?: readonly string[];
}

/** What a player takes from another Kibitz build (--b-build): its games' engines and its search. */
export interface EngineBuild {
  /** The build directory's name, added to B's name in records. */
  readonly name: string;
  findGame(id: string): GameDefinition<SearchPosition> | undefined;
  readonly analyse: typeof analyse;
  readonly LazySmp: typeof LazySmp;
}

/** Loads the engines and search of the build in `dir` (its package.json and compiled dist/). */
export async function loadBuild(dir: string): Promise<EngineBuild> {
  const root = resolve(dir);
  const src = join(root, 'dist', 'src');
  if (!existsSync(join(src, 'games', 'registry.js'))) throw new UsageError(`--b-build: ${dir} holds no compiled Kibitz (dist/src/games/registry.js)`);
  const load = (path: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(src, path)).href) as Promise<Record<string, unknown>>;
  const [registry, search, smp] = await Promise.all([load('games/registry.js'), load('search/analyse.js'), load('pool/lazy-smp.js')]);
  return {
    name: basename(root),
    findGame: registry.findGame as EngineBuild['findGame'],
    analyse: search.analyse as typeof analyse,
    LazySmp: smp.LazySmp as typeof LazySmp,
  };
}

export interface GameRecord {
  pair: number;
  first: string;
  second: string;
  /** The random opening and the moves played after it, in the game's move notation. */
  opening: string[];
  moves: string[];
  /** Points of the player moving first: 1, 0.5 or 0. */
  result: number;
}

export interface ArenaResult {
  wins: number;
  draws: number;
  losses: number;
  games: number;
  score: number;
  elo: number;
  eloError: number;
  /** A's points and games by the side it played (the game's side names). */
  bySide: Record<string, { points: number; games: number }>;
  /** Search statistics of A and B over the whole run. */
  statsA: SearchStats;
  statsB: SearchStats;
  /** Plies after the opening of each game A won, and of each game B won (how fast a player converts). */
  winPliesA: number[];
  winPliesB: number[];
}

export interface Player {
  readonly profile: string;
  /** Searches stopped by their depth or time limit (not proven, not a single legal reply): depths and nodes summed. */
  readonly stats: SearchStats;
  choose(def: GameDefinition<SearchPosition>, pos: SearchPosition): number;
}

export interface SearchStats {
  searches: number;
  depthSum: number;
  nodeSum: number;
  /** Milliseconds those searches took (from the player being asked to its answer); timed play only. */
  msSum?: number;
}

export function emptyStats(): SearchStats {
  return { searches: 0, depthSum: 0, nodeSum: 0 };
}

export function addStats(total: SearchStats, part: SearchStats): void {
  total.searches += part.searches;
  total.depthSum += part.depthSum;
  total.nodeSum += part.nodeSum;
  if (part.msSum !== undefined) total.msSum = (total.msSum ?? 0) + part.msSum;
}

/**
 * "mean depth 5.12, 41k nodes per search (1234 searches)" (plain counts under 1,000), with ", 97 ms per
 * search" when the time was recorded, or "no searches".
 */
export function describeStats(stats: SearchStats): string {
  if (stats.searches === 0) return 'no searches';
  const depth = (stats.depthSum / stats.searches).toFixed(2);
  const perSearch = stats.nodeSum / stats.searches;
  const nodes = perSearch < 1000 ? `${Math.round(perSearch)}` : `${Math.round(perSearch / 1000)}k`;
  const ms = stats.msSum === undefined ? '' : `, ${Math.round(stats.msSum / stats.searches)} ms per search`;
  return `mean depth ${depth}, ${nodes} nodes per search${ms} (${stats.searches} searches)`;
}

/**
 * `customise` adjusts each restored position before the search (an evaluator with other weights); `build`
 * plays with another build's engine and search (the position goes over as the engine's snapshot).
 */
export function makePlayer(
  profile: string,
  depth: number | undefined,
  ms: number | undefined,
  seed: number,
  customise?: (pos: SearchPosition) => void,
  timePolicy: TimePolicy = 'adaptive',
  threads = 1,
  build?: EngineBuild,
): Player {
  const rng = new Random(seed);
  // One thread: an ordinary table of its own; more: helper threads sharing it (levels stay on one).
  const smp = new (build?.LazySmp ?? LazySmp)(threads, 16);
  const search = build?.analyse ?? analyse;
  const searcher = smp.searcher;
  const stats = emptyStats();
  const level = profileLevel(profile);
  const engineProfile = level === undefined ? profile : 'default';
  if (build !== undefined && level !== undefined) throw new UsageError(`--b-build: levels play with this build only (${profile})`);
  return {
    profile,
    stats,
    choose(def, pos) {
      const asked = Date.now();
      const legal = legalMoveCodes(pos);
      if (profile === 'random') return legal[rng.below(legal.length)];
      const engine = build === undefined ? def.engine : build.findGame(def.id)?.engine;
      if (engine === undefined) throw new UsageError(`--b-build: the build has no game '${def.id}'`);
      const own = engine.restore(def.engine.snapshot(pos), { profile: engineProfile, seed: rng.nextU32() });
      customise?.(own);
      if (profile === 'greedy') return searcher.search(own, { maxDepth: 1 }).move;
      const setting = levelSetting(def.id, level);
      if (setting !== undefined) {
        const result = playLevel(engine, own, searcher, setting, WIN_PROB_CURVES[def.id], rng.nextU32());
        addStats(stats, { searches: 1, depthSum: result.depth, nodeSum: result.nodes, msSum: Date.now() - asked });
        return result.move;
      }
      const limits = depth !== undefined ? { maxDepth: depth } : { deadline: asked + (ms ?? 100), budgetStart: asked, timePolicy };
      if (depth !== undefined) searcher.tt.clear();
      const result = threads > 1 ? smp.analyse(engine, own, limits) : search(engine, own, searcher, limits);
      if (result.stopReason === 'depth' || result.stopReason === 'time') {
        const timed = depth === undefined ? { msSum: Date.now() - asked } : {};
        addStats(stats, { searches: 1, depthSum: result.depth, nodeSum: result.nodes, ...timed });
      }
      return result.move;
    },
  };
}

export function opening(def: GameDefinition<SearchPosition>, params: Record<string, unknown>, plies: number, rng: Random): number[] {
  const pos = startPosition(def, params);
  const moves: number[] = [];
  for (let i = 0; i < plies && statusOf(def, pos).status === 'ongoing'; i++) {
    const legal = legalMoveCodes(pos);
    const move = legal[rng.below(legal.length)];
    pos.makeMove(move);
    moves.push(move);
  }
  return statusOf(def, pos).status === 'ongoing' ? moves : opening(def, params, plies, rng);
}

/** Move codes of a line in the game's notation, each checked legal; throws naming the first bad move. */
export function decodeLine(def: GameDefinition<SearchPosition>, params: Record<string, unknown>, line: readonly string[]): number[] {
  const pos = startPosition(def, params);
  return line.map((text, i) => {
    const decoded = def.decodeMove(pos, text, `opening move ${i + 1}`);
    const move = decoded.ok ? decoded.value : -1;
    if (statusOf(def, pos).status !== 'ongoing' || !legalMoveCodes(pos).includes(move)) {
      throw new UsageError(`--opening-moves: move ${i + 1} (${text}) is not legal there`);
    }
    pos.makeMove(move);
    return move;
  });
}

export function startPosition(def: GameDefinition<SearchPosition>, params: Record<string, unknown>): SearchPosition {
  const initial = def.initialState(params);
  if (!initial.ok) throw new Error(`bad --params: ${initial.error.message}`);
  const decoded = def.decodeState(initial.value, undefined);
  if (!decoded.ok) throw new Error(`initial state does not decode: ${decoded.error.message}`);
  return decoded.value;
}

/**
 * Plays one game; returns 1 / 0.5 / 0 for the player moving first. `played` receives the moves after
 * the opening.
 */
export function playGame(
  def: GameDefinition<SearchPosition>,
  params: Record<string, unknown>,
  openingMoves: number[],
  first: Player,
  second: Player,
  maxPlies: number,
  played: number[] = [],
): number {
  const pos = startPosition(def, params);
  const firstSide = firstMoverSide(pos, openingMoves.length);
  for (const m of openingMoves) pos.makeMove(m);
  for (let ply = 0; ply < maxPlies; ply++) {
    const status = statusOf(def, pos);
    if (status.status === 'draw') return 0.5;
    if (status.status === 'win') return status.winner === def.sideNames[firstSide] ? 1 : 0;
    const player = pos.side === firstSide ? first : second;
    const move = player.choose(def, pos);
    if (!legalMoveCodes(pos).includes(move)) throw new Error(`${player.profile} chose an illegal move ${move}`);
    pos.makeMove(move);
    played.push(move);
  }
  return 0.5;
}

/** The side that moves first once an opening of `openingPlies` is played from the start position `start`. */
export function firstMoverSide(start: SearchPosition, openingPlies: number): number {
  return start.side ^ (openingPlies & 1);
}

/** The moves in the game's notation, replayed from the start position. */
export function notation(def: GameDefinition<SearchPosition>, params: Record<string, unknown>, moves: number[]): string[] {
  const pos = startPosition(def, params);
  return moves.map((move) => {
    const text = def.encodeMove(pos, move).notation;
    pos.makeMove(move);
    return text;
  });
}

export function eloFromScore(score: number): number {
  const s = Math.min(Math.max(score, 1e-4), 1 - 1e-4);
  return -400 * Math.log10(1 / s - 1);
}

export function runArena(options: ArenaOptions, print: (line: string) => void = console.log): ArenaResult {
  const def = findGame(options.game);
  if (def === undefined) throw new UsageError(`unknown game ${options.game}`);
  const rng = new Random(options.seed);
  const a = makePlayer(options.a, options.depth, options.ms, options.seed * 2 + 1, undefined, options.aTime, options.aThreads);
  const bDepth = options.bDepth ?? options.depth;
  const b = makePlayer(options.b, bDepth, options.ms, options.seed * 2 + 2, undefined, options.bTime, options.bThreads, options.bBuild);
  // Records name a player with helper threads by its threads too ('default' against 'default@2t'), and B
  // from another build by that build ('default' against 'default@main').
  const nameA = (options.aThreads ?? 1) > 1 ? `${options.a}@${options.aThreads}t` : options.a;
  const bBuild = options.bBuild === undefined ? '' : `@${options.bBuild.name}`;
  const nameB = ((options.bThreads ?? 1) > 1 ? `${options.b}@${options.bThreads}t` : options.b) + bBuild;
  let wins = 0;
  let draws = 0;
  let losses = 0;
  const points: number[] = [];
  const winPliesA: number[] = [];
  const winPliesB: number[] = [];
  const bySide: Record<string, { points: number; games: number }> = {};
  for (const name of def.sideNames) bySide[name] = { points: 0, games: 0 };
  const fixedOpening = options.openingMoves === undefined ? undefined : decodeLine(def, options.params, options.openingMoves);
  for (let pair = 0; pair < options.pairs; pair++) {
    const moves = fixedOpening ?? opening(def, options.params, options.openingPlies, rng);
    const playedFirst: number[] = [];
    const playedSecond: number[] = [];
    const asFirst = playGame(def, options.params, moves, a, b, options.maxPlies, playedFirst);
    const asSecond = 1 - playGame(def, options.params, moves, b, a, options.maxPlies, playedSecond);
    if (asFirst !== 0.5) (asFirst === 1 ? winPliesA : winPliesB).push(playedFirst.length);
    if (asSecond !== 0.5) (asSecond === 1 ? winPliesA : winPliesB).push(playedSecond.length);
    if (options.record !== undefined) {
      const line = (first: string, second: string, played: number[], result: number): string => {
        const text = notation(def, options.params, [...moves, ...played]);
        const record: GameRecord = { pair: pair + 1, first, second, opening: text.slice(0, moves.length), moves: text.slice(moves.length), result };
        return JSON.stringify(record);
      };
      appendFileSync(options.record, `${line(nameA, nameB, playedFirst, asFirst)}\n${line(nameB, nameA, playedSecond, 1 - asSecond)}\n`);
    }
    const firstSide = firstMoverSide(startPosition(def, options.params), moves.length);
    bySide[def.sideNames[firstSide]].points += asFirst;
    bySide[def.sideNames[firstSide]].games++;
    bySide[def.sideNames[1 - firstSide]].points += asSecond;
    bySide[def.sideNames[1 - firstSide]].games++;
    for (const p of [asFirst, asSecond]) {
      points.push(p);
      if (p === 1) wins++;
      else if (p === 0) losses++;
      else draws++;
    }
    if (options.verbose) print(`pair ${pair + 1}: ${options.a} as first ${asFirst}, as second ${asSecond}`);
  }
  const games = points.length;
  const score = (wins + draws / 2) / games;
  const variance = points.reduce((acc, p) => acc + (p - score) ** 2, 0) / Math.max(1, games - 1);
  const margin = 1.96 * Math.sqrt(variance / games);
  const elo = eloFromScore(score);
  const eloError = (eloFromScore(Math.min(score + margin, 1)) - eloFromScore(Math.max(score - margin, 0))) / 2;
  return { wins, draws, losses, games, score, elo, eloError, bySide, statsA: a.stats, statsB: b.stats, winPliesA, winPliesB };
}

/** "mean 42.5, median 40, max 98 (12 games)", or "none". */
export function describePlies(plies: readonly number[]): string {
  if (plies.length === 0) return 'none';
  const sorted = [...plies].sort((x, y) => x - y);
  const mean = sorted.reduce((sum, p) => sum + p, 0) / sorted.length;
  const median = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return `mean ${mean.toFixed(1)}, median ${median}, max ${sorted[sorted.length - 1]} (${sorted.length} games)`;
}

export function parseParams(raw: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw ?? '')) out[k] = /^-?\d+$/.test(v) ? Number(v) : v;
  return out;
}

const spec = {
  name: 'arena',
  usage: `npm run arena -- --game othello --a default --b seed [--pairs 50] [--depth 4 | --ms 100] [--b-depth 3]
                 [--opening-plies 4] [--seed 1] [--params "m=9&n=9&k=5"] [--max-plies 400] [--verbose]
                 [--record games.jsonl] [--a-time adaptive|legacy] [--b-time adaptive|legacy]
                 [--a-threads 1] [--b-threads 1] [--b-build DIR]

Plays engine configuration A against B from seeded random openings, each opening twice with the
colours swapped, and prints W/D/L for A with an Elo estimate and its 95% error bar. Profiles are the
games' evaluation profiles ('default', 'seed', ...) plus two baselines every game has: 'random'
(a uniformly random legal move) and 'greedy' (a one-ply search), and the playing levels 'level1' to
'level${TOP_LEVEL}' (below the top: node limits, whatever --depth / --ms say; the top is 'default'). --b-depth gives B its own fixed
depth, to measure what a ply of search is worth against an evaluation's knowledge. --record
appends one JSON line per game (pair, who played first, opening and game moves in the game's
notation, result for the first player), so lost games can be replayed and studied.
--a-time / --b-time choose a player's time manager with --ms (default adaptive; legacy: the rule
before issue 18, stop at 55% of the time), to measure one against the other. --a-threads /
--b-threads give a player Lazy SMP helper threads sharing its table (the Tablut client's --threads),
to measure what a thread is worth at equal time. --b-build DIR gives B the engines and search of
another Kibitz build (DIR holds its package.json and compiled dist/, e.g. a copy of main's), to
measure a change against the code it replaces. --opening-moves "m1 m2 ..." starts every pair from
that line (the game's notation) instead of a random opening: a recorded game's position of interest.

  --help  this text`,
  options: {
    game: { type: 'string', default: 'mnk' },
    a: { type: 'string', default: 'default' },
    b: { type: 'string', default: 'seed' },
    pairs: { type: 'string', default: '20' },
    depth: { type: 'string' },
    'b-depth': { type: 'string' },
    ms: { type: 'string' },
    'opening-plies': { type: 'string', default: '4' },
    seed: { type: 'string', default: '1' },
    params: { type: 'string' },
    'max-plies': { type: 'string', default: '400' },
    verbose: { type: 'boolean', default: false },
    record: { type: 'string' },
    'a-time': { type: 'string', default: 'adaptive' },
    'b-time': { type: 'string', default: 'adaptive' },
    'a-threads': { type: 'string', default: '1' },
    'b-threads': { type: 'string', default: '1' },
    'b-build': { type: 'string' },
    'opening-moves': { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  const policy = (name: 'a-time' | 'b-time'): TimePolicy => {
    const value = values[name] as string;
    if (!(TIME_POLICIES as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${TIME_POLICIES.join(', ')}`);
    return value as TimePolicy;
  };
  const options: ArenaOptions = {
    game: values.game!,
    a: values.a!,
    b: values.b!,
    pairs: Number(values.pairs),
    depth: values.depth === undefined ? (values.ms === undefined ? 3 : undefined) : Number(values.depth),
    bDepth: values['b-depth'] === undefined ? undefined : Number(values['b-depth']),
    ms: values.ms === undefined ? undefined : Number(values.ms),
    openingPlies: Number(values['opening-plies']),
    seed: Number(values.seed),
    params: parseParams(values.params),
    maxPlies: Number(values['max-plies']),
    verbose: values.verbose!,
    record: values.record,
    aTime: policy('a-time'),
    bTime: policy('b-time'),
    aThreads: intOption(values, 'a-threads', 1, 1, 64),
    bThreads: intOption(values, 'b-threads', 1, 1, 64),
    bBuild: values['b-build'] === undefined ? undefined : await loadBuild(values['b-build']),
    openingMoves: values['opening-moves']?.split(/\s+/).filter((m) => m !== ''),
  };
  const limit =
    options.depth !== undefined
      ? `depth ${options.depth}${options.bDepth !== undefined ? ` (B depth ${options.bDepth})` : ''}`
      : `${options.ms} ms/move${options.aTime !== options.bTime ? ` (time managers: A ${options.aTime}, B ${options.bTime})` : ''}`;
  const threads = options.aThreads !== 1 || options.bThreads !== 1 ? `, threads A ${options.aThreads} B ${options.bThreads}` : '';
  const bBuild = options.bBuild === undefined ? '' : ` (B: build ${options.bBuild.name})`;
  console.log(`arena ${options.game}: ${options.a} vs ${options.b}${bBuild}, ${options.pairs} openings x 2 colours, ${limit}${threads}, seed ${options.seed}`);
  const started = Date.now();
  const r = runArena(options);
  console.log(
    `${options.a} vs ${options.b}: +${r.wins} =${r.draws} -${r.losses} (${r.games} games) score ${(r.score * 100).toFixed(1)}% ` +
      `Elo ${r.elo >= 0 ? '+' : ''}${r.elo.toFixed(0)} ± ${r.eloError.toFixed(0)} (95%) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const sides = Object.entries(r.bySide).map(
    ([side, { points, games }]) => `as ${side} ${points}/${games} (${((100 * points) / Math.max(1, games)).toFixed(1)}%)`,
  );
  console.log(`${options.a} by side: ${sides.join(', ')}`);
  console.log(`${options.a}: ${describeStats(r.statsA)}; ${options.b}: ${describeStats(r.statsB)}`);
  console.log(`plies after the opening of the games won: by A ${describePlies(r.winPliesA)}; by B ${describePlies(r.winPliesB)}`);
}

runCliIfMain(import.meta.url, spec, main);
