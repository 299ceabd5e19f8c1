/**
 * Othello match: Kibitz (an evaluation profile at a fixed depth, node count or time per move) against
 * any engine that speaks the NBoard protocol (a command line and a depth), over a file of balanced
 * openings, each opening played twice with the colours swapped. Prints Kibitz's score with its 95%
 * error bar, the mean final disc difference and both sides' mean time per move (so a fixed-depth
 * result can be turned into an equal-time one on a quiet machine). With --record the games go to a
 * JSON-lines file and a rerun with the same file continues where it stopped.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ParsedArgs, UsageError, intOption, numberOption, partOption, runCliIfMain } from '../src/core/cli.js';
import { definition } from '../src/games/othello/index.js';
import type { OthelloPosition } from '../src/games/othello/position.js';
import { PROFILES } from '../src/games/othello/profiles.js';
import type { EngineOptions } from '../src/games/types.js';
import { othelloMovesToGo } from '../src/games/othello/clock.js';
import { analyse } from '../src/search/analyse.js';
import { clockMoveBudgetMs } from '../src/search/clock.js';
import { NOT_TERMINAL } from '../src/search/score.js';
import { type SearchLimits, Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { eloFromScore } from './arena.js';
import { NBoardEngine } from './nboard-client.js';

export const DEFAULT_OPENINGS = fileURLToPath(new URL('../../tools/othello-openings.txt', import.meta.url));

/** How Kibitz is limited: one of depth, nodes, milliseconds a move, or a game clock (ms for all its moves of a game). */
export interface KibitzLimit {
  readonly depth?: number;
  readonly nodes?: number;
  readonly ms?: number;
  readonly gameMs?: number;
}

export interface MatchOptions {
  readonly engine: string;
  readonly engineDepth: number;
  readonly profile: string;
  readonly limit: KibitzLimit;
  readonly openings: readonly string[][];
  readonly ttMb: number;
  readonly record?: string;
  readonly engineOptions?: Omit<EngineOptions, 'profile'>;
  /** Play only openings i with i % parts === part (two matches on two cores, one record each). */
  readonly part?: { readonly part: number; readonly parts: number };
}

export interface MatchGame {
  /** Index of the opening in the openings list. */
  readonly opening: number;
  /** 'B' when Kibitz played Black. */
  readonly kibitz: 'B' | 'W';
  readonly moves: string[];
  /** Kibitz's points: 1, 0.5, 0. */
  readonly points: number;
  /** Final disc difference for Kibitz, empty squares to the winner. */
  readonly discs: number;
  readonly kibitzMoves: number;
  readonly kibitzSeconds: number;
  /**
   * CPU time of this process (user + system) over Kibitz's moves: beside the wall time it shows what a busy
   * machine left of the budget, comparable with NTest's own clock (its process CPU time, clock()).
   */
  readonly kibitzCpuSeconds?: number;
  readonly engineMoves: number;
  /** Engine time per `go`, measured from here (pipe included) and as the engine reported it. */
  readonly engineSeconds: number;
  readonly engineOwnSeconds: number;
  /** Sum of Kibitz's completed depths over searches stopped by their limit (not solved, not forced). */
  readonly kibitzDepthSum?: number;
  readonly kibitzSearches?: number;
  /** Nodes Kibitz searched (generic search and solver) over the game. */
  readonly kibitzNodes?: number;
  /** With a game clock: what was left of it at the end (ms; negative when overrun). */
  readonly kibitzClockLeftMs?: number;
  /** Wall ms of each move after the opening, in playing order, whoever moved (0 for a forced pass); older records lack it. */
  readonly moveMs?: number[];
}

export interface MatchSummary {
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly score: number;
  /** Half-width of the 95% interval of the score. */
  readonly scoreError: number;
  readonly elo: number;
  readonly discs: number;
  readonly discsError: number;
  readonly kibitzMsPerMove: number;
  /** Over the games that recorded it; NaN when none did. */
  readonly kibitzCpuMsPerMove: number;
  readonly engineMsPerMove: number;
  readonly engineOwnMsPerMove: number;
  readonly kibitzMeanDepth: number;
  readonly kibitzNodesPerMove: number;
  readonly asBlack: { points: number; games: number };
  readonly asWhite: { points: number; games: number };
}

/** Openings file: one opening per line as concatenated squares ('f5d6c3d3c4'); '#' starts a comment. */
/** The openings of a file given with --openings (or the default file); a usage error if it cannot be read. */
export function readOpenings(path: string = DEFAULT_OPENINGS): string[][] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`--openings: cannot read ${path}`);
  }
  return parseOpenings(text);
}

export function parseOpenings(text: string): string[][] {
  const out: string[][] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    if (!/^([a-h][1-8])+$/i.test(line)) throw new UsageError(`openings line ${i + 1}: '${line}' is not a run of squares like f5d6c3`);
    out.push(line.toLowerCase().match(/../g)!);
  });
  return out;
}

function startPosition(): OthelloPosition {
  const s = definition.initialState({});
  if (!s.ok) throw new Error('no initial state');
  const r = definition.decodeState(s.value, undefined);
  if (!r.ok) throw new Error('bad initial state');
  return r.value;
}

function play(pos: OthelloPosition, move: string): void {
  const code = definition.decodeMove(pos, move, 'move');
  if (!code.ok) throw new Error(`bad move '${move}': ${code.error.message}`);
  const legal = new Int32Array(64);
  const n = pos.generateMoves(legal, 0);
  if (!legal.subarray(0, n).includes(code.value)) throw new Error(`illegal move '${move}'`);
  pos.makeMove(code.value);
}

/** The limits of one move; under a game clock, its share of what is left (`clockLeftMs`, the whole bank if not given) at `empties`. */
export function limitsFor(limit: KibitzLimit, clockLeftMs = limit.gameMs ?? 0, empties = 60): SearchLimits {
  if (limit.depth !== undefined) return { maxDepth: limit.depth };
  if (limit.nodes !== undefined) return { nodeLimit: limit.nodes };
  if (limit.gameMs !== undefined) return { deadline: Date.now() + clockMoveBudgetMs({ remainingMs: clockLeftMs, incrementMs: 0 }, othelloMovesToGo(empties)) };
  return { deadline: Date.now() + (limit.ms ?? 1000) };
}

export function describeLimit(limit: KibitzLimit): string {
  if (limit.depth !== undefined) return `depth ${limit.depth}`;
  if (limit.nodes !== undefined) return `${limit.nodes} nodes`;
  if (limit.gameMs !== undefined) return `a game clock of ${limit.gameMs} ms`;
  return `${limit.ms ?? 1000} ms`;
}

/** Plays one game from an opening; Kibitz plays `kibitz`. */
export async function playMatchGame(
  engine: NBoardEngine,
  searcher: Searcher,
  options: MatchOptions,
  openingIndex: number,
  kibitz: 'B' | 'W',
): Promise<MatchGame> {
  const pos = startPosition();
  const moves: string[] = [];
  for (const m of options.openings[openingIndex]) {
    play(pos, m);
    moves.push(m);
  }
  const kibitzSide = kibitz === 'B' ? 0 : 1;
  const engineOptions: EngineOptions = { ...options.engineOptions, profile: options.profile };
  searcher.tt.clear();
  let kibitzMoves = 0;
  let kibitzSeconds = 0;
  let kibitzCpuSeconds = 0;
  let engineMoves = 0;
  let engineSeconds = 0;
  let engineOwnSeconds = 0;
  let kibitzDepthSum = 0;
  let kibitzSearches = 0;
  let kibitzNodes = 0;
  let clockLeftMs = options.limit.gameMs ?? 0;
  const moveMs: number[] = [];
  const buffer = new Int32Array(64);
  while (pos.terminal() === NOT_TERMINAL) {
    if (pos.generateMoves(buffer, 0) === 1 && buffer[0] === 64) {
      // A forced pass is not a decision: neither side is asked.
      play(pos, 'pass');
      moves.push('pass');
      moveMs.push(0);
      continue;
    }
    if (pos.side === kibitzSide) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const own = definition.engine.restore(definition.engine.snapshot(pos), engineOptions);
      const result = analyse(definition.engine, own, searcher, limitsFor(options.limit, clockLeftMs, pos.empties));
      const elapsedMs = performance.now() - started;
      clockLeftMs -= elapsedMs;
      kibitzSeconds += elapsedMs / 1000;
      const used = process.cpuUsage(cpu);
      kibitzCpuSeconds += (used.user + used.system) / 1e6;
      kibitzMoves++;
      kibitzNodes += result.nodes;
      if (result.stopReason === 'depth' || result.stopReason === 'time') {
        kibitzDepthSum += result.depth;
        kibitzSearches++;
      }
      const move = definition.encodeMove(own, result.move).notation;
      play(pos, move);
      moves.push(move);
      moveMs.push(Math.round(elapsedMs));
    } else {
      const answer = await engine.bestMove(moves);
      engineMoves++;
      engineSeconds += answer.wallSeconds;
      engineOwnSeconds += answer.engineSeconds ?? answer.wallSeconds;
      play(pos, answer.move);
      moves.push(answer.move);
      moveMs.push(Math.round(answer.wallSeconds * 1000));
    }
  }
  const final = pos.finalScore();
  const discs = pos.side === kibitzSide ? final : -final;
  const points = discs > 0 ? 1 : discs < 0 ? 0 : 0.5;
  return {
    opening: openingIndex,
    kibitz,
    moves,
    points,
    discs,
    kibitzMoves,
    kibitzSeconds,
    kibitzCpuSeconds,
    engineMoves,
    engineSeconds,
    engineOwnSeconds,
    kibitzDepthSum,
    kibitzSearches,
    kibitzNodes,
    ...(options.limit.gameMs === undefined ? {} : { kibitzClockLeftMs: Math.round(clockLeftMs) }),
    moveMs,
  };
}

/** One game of a record: its opening and Kibitz's colour. */
export function gameKey(g: { opening: number; kibitz: string }): string {
  return `${g.opening}:${g.kibitz}`;
}

/** Games already in the record file (a rerun continues after them). */
export function readRecord(path: string): MatchGame[] {
  return readJsonLines<MatchGame>(path);
}

/** A JSON-lines file (records, judged games), one value per non-blank line; [] if it does not exist yet. */
export function readJsonLines<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
}

/** Half-width of the 95% normal interval of the mean of `xs` (whose mean is `m`); 0 below two values. */
function halfWidth(xs: readonly number[], m: number): number {
  return xs.length < 2 ? 0 : 1.96 * Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
}

export function summarise(games: readonly MatchGame[]): MatchSummary {
  const n = games.length;
  const points = games.map((g) => g.points);
  const discs = games.map((g) => g.discs);
  const score = mean(points);
  const disc = mean(discs);
  const sum = (f: (g: MatchGame) => number): number => games.reduce((a, g) => a + f(g), 0);
  const side = (s: 'B' | 'W'): { points: number; games: number } => {
    const mine = games.filter((g) => g.kibitz === s);
    return { points: mine.reduce((a, g) => a + g.points, 0), games: mine.length };
  };
  return {
    games: n,
    wins: games.filter((g) => g.points === 1).length,
    draws: games.filter((g) => g.points === 0.5).length,
    losses: games.filter((g) => g.points === 0).length,
    score,
    scoreError: halfWidth(points, score),
    elo: eloFromScore(score),
    discs: disc,
    discsError: halfWidth(discs, disc),
    kibitzMsPerMove: (1000 * sum((g) => g.kibitzSeconds)) / Math.max(1, sum((g) => g.kibitzMoves)),
    kibitzCpuMsPerMove: cpuMsPerMove(games),
    engineMsPerMove: (1000 * sum((g) => g.engineSeconds)) / Math.max(1, sum((g) => g.engineMoves)),
    engineOwnMsPerMove: (1000 * sum((g) => g.engineOwnSeconds)) / Math.max(1, sum((g) => g.engineMoves)),
    kibitzMeanDepth: sum((g) => g.kibitzDepthSum ?? 0) / Math.max(1, sum((g) => g.kibitzSearches ?? 0)),
    kibitzNodesPerMove: sum((g) => g.kibitzNodes ?? 0) / Math.max(1, sum((g) => g.kibitzMoves)),
    asBlack: side('B'),
    asWhite: side('W'),
  };
}

/** Kibitz's CPU ms a move over the games that recorded it (records before the field have none): NaN if none. */
function cpuMsPerMove(games: readonly MatchGame[]): number {
  const timed = games.filter((g) => g.kibitzCpuSeconds !== undefined);
  if (timed.length === 0) return Number.NaN;
  const moves = timed.reduce((a, g) => a + g.kibitzMoves, 0);
  return (1000 * timed.reduce((a, g) => a + (g.kibitzCpuSeconds ?? 0), 0)) / Math.max(1, moves);
}

export interface StageTimes {
  /** Empties before the move: from `low` to `high`, both included. */
  readonly low: number;
  readonly high: number;
  readonly kibitzMoves: number;
  readonly kibitzMs: number;
  readonly engineMoves: number;
  readonly engineMs: number;
}

/** Stages STAGE_WIDTH empties wide down to STAGE_FLOOR; every move below it falls in one stage. */
const STAGE_WIDTH = 4;
const STAGE_FLOOR = 20;

/**
 * Each side's mean wall ms a move by the empties before the move (stages of four from 56-59 down to 20-23, then
 * 0-19), over the games whose record has `moveMs`; forced passes are not moves. Empty stages are left out.
 */
export function timesByEmpties(games: readonly MatchGame[]): StageTimes[] {
  const stages = new Map<number, { kibitz: number[]; engine: number[] }>();
  for (const g of games) {
    if (g.moveMs === undefined) continue;
    const from = g.moves.length - g.moveMs.length;
    let empties = 60 - g.moves.slice(0, from).filter((m) => m !== 'pass').length;
    const kibitzParity = g.kibitz === 'B' ? 0 : 1;
    g.moveMs.forEach((ms, k) => {
      const i = from + k;
      if (g.moves[i] === 'pass') return;
      const low = empties < STAGE_FLOOR ? 0 : empties - ((empties - STAGE_FLOOR) % STAGE_WIDTH);
      const stage = stages.get(low) ?? { kibitz: [], engine: [] };
      (i % 2 === kibitzParity ? stage.kibitz : stage.engine).push(ms);
      stages.set(low, stage);
      empties--;
    });
  }
  return [...stages.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([low, s]) => ({
      low,
      high: low === 0 ? STAGE_FLOOR - 1 : low + STAGE_WIDTH - 1,
      kibitzMoves: s.kibitz.length,
      kibitzMs: mean(s.kibitz),
      engineMoves: s.engine.length,
      engineMs: mean(s.engine),
    }));
}

export function formatStageTimes(stages: readonly StageTimes[]): string[] {
  if (stages.length === 0) return ['no per-move times in this record (recorded since the thirty-second round)'];
  return [
    'empties before the move | Kibitz ms a move (moves) | engine ms a move (moves)',
    ...stages.map((s) => `${s.low}-${s.high} | ${s.kibitzMs.toFixed(0)} (${s.kibitzMoves}) | ${s.engineMs.toFixed(0)} (${s.engineMoves})`),
  ];
}

export interface PairedDifference {
  /** Games present in both records (same opening, same colour for Kibitz). */
  readonly games: number;
  /** Mean of (second - first) points per game, with its 95% half-width. */
  readonly points: number;
  readonly pointsError: number;
  /** Mean of (second - first) disc differences per game, with its 95% half-width. */
  readonly discs: number;
  readonly discsError: number;
}

/**
 * Game-by-game difference between two runs over the same openings: each game of one is paired with
 * the game of the other from the same opening and colour, which removes the openings' spread.
 */
export function pairedDifference(first: readonly MatchGame[], second: readonly MatchGame[]): PairedDifference {
  const byKey = new Map(first.map((g) => [gameKey(g), g]));
  const points: number[] = [];
  const discs: number[] = [];
  for (const g of second) {
    const other = byKey.get(gameKey(g));
    if (other === undefined) continue;
    points.push(g.points - other.points);
    discs.push(g.discs - other.discs);
  }
  const n = points.length;
  const p = mean(points);
  const d = mean(discs);
  return { games: n, points: p, pointsError: halfWidth(points, p), discs: d, discsError: halfWidth(discs, d) };
}

export function formatPaired(d: PairedDifference): string {
  const signed = (x: number, digits: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
  return (
    `paired over ${d.games} games (second - first): ${signed(100 * d.points, 1)} ± ${(100 * d.pointsError).toFixed(1)} points, ` +
    `${signed(d.discs, 1)} ± ${d.discsError.toFixed(1)} discs (95%)`
  );
}

export function formatSummary(s: MatchSummary): string[] {
  const pct = (x: number): string => (100 * x).toFixed(1);
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
  const cpu = Number.isNaN(s.kibitzCpuMsPerMove) ? '' : ` (${s.kibitzCpuMsPerMove.toFixed(0)} ms CPU)`;
  return [
    `+${s.wins} =${s.draws} -${s.losses} (${s.games} games): score ${pct(s.score)}% ± ${pct(s.scoreError)} (95%), ` +
      `Elo ${s.elo >= 0 ? '+' : ''}${s.elo.toFixed(0)}; mean disc difference ${signed(s.discs)} ± ${s.discsError.toFixed(1)}`,
    `as Black ${s.asBlack.points}/${s.asBlack.games}, as White ${s.asWhite.points}/${s.asWhite.games}`,
    `time per move: Kibitz ${s.kibitzMsPerMove.toFixed(0)} ms${cpu} (mean depth ${s.kibitzMeanDepth.toFixed(1)} where not solved, ` +
      `${s.kibitzNodesPerMove.toFixed(0)} nodes), ` +
      `engine ${s.engineMsPerMove.toFixed(0)} ms wall (${s.engineOwnMsPerMove.toFixed(0)} ms by its own clock)`,
  ];
}

/** Plays every opening with both colours (skipping games already recorded); returns all games. */
export async function runMatch(options: MatchOptions, print: (line: string) => void = console.log): Promise<MatchGame[]> {
  const games = options.record === undefined ? [] : readRecord(options.record);
  const done = new Set(games.map(gameKey));
  if (games.length > 0) print(`continuing: ${games.length} games already in ${options.record}`);
  const engine = new NBoardEngine(options.engine);
  const searcher = new Searcher(new TranspositionTable(options.ttMb));
  try {
    await engine.setDepth(options.engineDepth);
    for (let i = 0; i < options.openings.length; i++) {
      if (options.part !== undefined && i % options.part.parts !== options.part.part) continue;
      for (const kibitz of ['B', 'W'] as const) {
        if (done.has(gameKey({ opening: i, kibitz }))) continue;
        const game = await playMatchGame(engine, searcher, options, i, kibitz);
        games.push(game);
        if (options.record !== undefined) appendFileSync(options.record, `${JSON.stringify(game)}\n`);
      }
      if ((i + 1) % 10 === 0) print(`after ${i + 1} openings: ${formatSummary(summarise(games))[0]}`);
    }
  } finally {
    await engine.close();
  }
  return games;
}

const usage = `npm run othello-match -- --engine CMD --engine-depth N [options]

Kibitz against an NBoard-protocol Othello engine over balanced openings, both colours per opening.

  --engine CMD         engine command line, run by the shell (e.g. "cd /opt/ntest && ./ntest x")
  --engine-depth N     the engine's midgame depth (NBoard "set depth")
  --profile NAME       Kibitz evaluation profile (${PROFILES.join(', ')}; default: default)
  --depth N | --nodes N | --ms N | --game-ms N
                       Kibitz's limit per move (default: --depth 8), or a game clock: N ms for all of
                       Kibitz's moves of a game, spread over its moves down to 20 empties, what a move
                       leaves banked for the next; fixed depths and node counts are not slowed by a
                       busy machine, time budgets are
  --openings FILE      openings, one per line as squares 'f5d6c3...' (default tools/othello-openings.txt)
  --first N            play only the first N openings (default: all)
  --part K/M           play only openings K-1, K-1+M, ... of those (M matches at once, one --record each;
                       the opening numbers stay those of the whole list, so records pair and merge)
  --probcut T          Kibitz's Multi-ProbCut confidence in standard deviations (0 = off; default: the
                       service's default)
  --tt-mb N            Kibitz transposition table size (default 64, the service's)
  --record FILE        append each game as a JSON line; rerunning with the same file continues
  --times FILE         play nothing: each side's mean wall time a move by the empties before it, from a record
  --paired A,B         play nothing: summarise record files A and B (score, time a move) and their game-by-game difference
                       (B - A) over the games both hold (same opening and colour)
  -h, --help           this text
`;

const spec = {
  name: 'othello-match',
  usage,
  options: {
    engine: { type: 'string' },
    'engine-depth': { type: 'string' },
    profile: { type: 'string' },
    depth: { type: 'string' },
    nodes: { type: 'string' },
    ms: { type: 'string' },
    'game-ms': { type: 'string' },
    openings: { type: 'string' },
    first: { type: 'string' },
    part: { type: 'string' },
    'tt-mb': { type: 'string' },
    probcut: { type: 'string' },
    record: { type: 'string' },
    paired: { type: 'string' },
    times: { type: 'string' },
  },
} as const;

/** The games of a record file named by option `--name`; a usage error if there is no such file. */
function recordOption(name: string, path: string): MatchGame[] {
  if (!existsSync(path)) throw new UsageError(`--${name}: no record file '${path}'`);
  return readRecord(path);
}

function printPaired(text: string): void {
  const files = text.split(',');
  if (files.length !== 2 || files.some((f) => f.trim() === '')) throw new UsageError('--paired must be two record files A,B');
  const [a, b] = files.map((f) => recordOption('paired', f));
  for (const line of pairedReport(files[0], a, files[1], b)) console.log(line);
}

/** `--paired`'s report: each record's score line and time line (ms a move, mean depth), then their paired difference. */
export function pairedReport(nameA: string, a: readonly MatchGame[], nameB: string, b: readonly MatchGame[]): string[] {
  const record = (label: string, games: readonly MatchGame[]): string[] => {
    const lines = formatSummary(summarise(games));
    return [`${label}: ${lines[0]}`, `  ${lines[2]}`];
  };
  return [...record(`A ${nameA}`, a), ...record(`B ${nameB}`, b), formatPaired(pairedDifference(a, b))];
}

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  if (values.paired !== undefined) {
    printPaired(values.paired);
    return;
  }
  if (values.times !== undefined) {
    for (const line of formatStageTimes(timesByEmpties(recordOption('times', values.times)))) console.log(line);
    return;
  }
  if (values.engine === undefined) throw new UsageError('--engine is required');
  if (values['engine-depth'] === undefined) throw new UsageError('--engine-depth is required');
  const engineDepth = intOption(values, 'engine-depth', 0, 1, 60);
  const profile = values.profile ?? 'default';
  if (!(PROFILES as readonly string[]).includes(profile)) throw new UsageError(`--profile must be one of ${PROFILES.join(', ')}`);
  const given = ['depth', 'nodes', 'ms', 'game-ms'].filter((k) => values[k as 'depth'] !== undefined);
  if (given.length > 1) throw new UsageError('give at most one of --depth, --nodes, --ms, --game-ms');
  const limit: KibitzLimit =
    values.nodes !== undefined
      ? { nodes: intOption(values, 'nodes', 0, 1) }
      : values.ms !== undefined
        ? { ms: intOption(values, 'ms', 0, 1) }
        : values['game-ms'] !== undefined
          ? { gameMs: intOption(values, 'game-ms', 0, 1) }
          : { depth: intOption(values, 'depth', 8, 1, 60) };
  let openings = readOpenings(values.openings);
  if (values.first !== undefined) openings = openings.slice(0, intOption(values, 'first', 0, 1));
  const options: MatchOptions = {
    engine: values.engine,
    engineDepth,
    profile,
    limit,
    openings,
    ttMb: intOption(values, 'tt-mb', 64, 1, 4096),
    record: values.record,
    ...(values.part === undefined ? {} : { part: partOption(values, 'part') }),
    ...(values.probcut === undefined ? {} : { engineOptions: { probCut: numberOption(values, 'probcut', 0, 0, 10) } }),
  };
  console.log(
    `othello-match: Kibitz ${profile}${values.probcut === undefined ? '' : ` probCut ${values.probcut}`} at ${describeLimit(limit)} ` +
      `vs '${options.engine}' at depth ${engineDepth}, ` +
      `${openings.length} openings x 2 colours`,
  );
  const started = Date.now();
  const games = await runMatch(options);
  for (const line of formatSummary(summarise(games))) console.log(line);
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

runCliIfMain(import.meta.url, spec, main);
