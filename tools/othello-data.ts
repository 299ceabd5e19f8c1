/**
 * Training positions for the Othello pattern evaluation (offline; see tools/othello-fit.ts and
 * docs/strength.md). Self-play games from randomised openings, written in chunk files so that a
 * stopped run continues where it stopped and several processes can share the work:
 *
 *   node dist/tools/othello-data.js games --dir data/othello/games --games 20000 [--part 1/2]
 *   node dist/tools/othello-data.js relabel --dir data/othello/games --out data/othello/d6 --depth 6 [--part 1/2]
 *   node dist/tools/othello-data.js records --records a.jsonl,b.jsonl --dir data/othello/real [--exclude-openings 120-199]
 *
 * Each game: a random opening of --open-min..--open-max plies, then a fixed-depth search with the
 * --profile evaluation and a random move with probability --epsilon, until --solve-empties empty
 * squares are left; from there the exact solver's optimal line to the end. Every position is a
 * record (Int32, RECORD_INTS per record, side-to-move relative):
 *   pl, ph, ol, oh   own and opponent discs (low / high halves)
 *   empties
 *   outcome          the game's final disc difference for the side to move, empties to the winner
 *                    (exact from --solve-empties on: the solver's line keeps the position's value)
 *   exact            1 when `outcome` is the position's exact value
 *   search           the playing search's score (centi-discs), or NO_SCORE (random or solved move)
 *   game             game number (held-out test games are those with game % TEST_EVERY === 0)
 *   spare            0
 *
 * `relabel` copies chunk files with the `search` field replaced by a deeper search's score (the
 * --profile evaluation at --depth plies) on every position not already exact, so a fit can lean
 * on a better-informed target than the self-play move's shallow score (othello-fit --search-mix).
 * `records` writes the same records from the games of othello-match records instead of self-play
 * (positions of real games; `search` left for relabel to fill).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedArgs, UsageError, intOption, numberOption, partOption, rangeOption, runCliIfMain } from '../src/core/cli.js';
import { Random } from '../src/core/random.js';
import { definition } from '../src/games/othello/index.js';
import type { OthelloPosition } from '../src/games/othello/position.js';
import { PASS_MOVE, parseSquare } from '../src/games/othello/board.js';
import { evaluatorFor } from '../src/games/othello/profiles.js';
import { solveExactly } from '../src/games/othello/solver.js';
import { NOT_TERMINAL } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';

export const RECORD_INTS = 10;
export const R_EMPTIES = 4;
export const R_OUTCOME = 5;
export const R_EXACT = 6;
export const R_SEARCH = 7;
export const R_GAME = 8;
export const NO_SCORE = -2147483648;
/** Games with number % TEST_EVERY === 0 are the held-out test set. */
export const TEST_EVERY = 10;

export interface GameOptions {
  readonly openMin: number;
  readonly openMax: number;
  readonly depth: number;
  readonly epsilon: number;
  readonly solveEmpties: number;
  readonly profile: string;
  /** ProbCut confidence of the self-play search (0: full width, as the recorded data sets were made). */
  readonly probCut: number;
  readonly seed: number;
  /**
   * Probability, at each position of the solver's line, of also recording one random other move's child
   * with its exact value (0: none). The line alone holds only best play; a search's leaves are mostly
   * positions after worse moves.
   */
  readonly siblings?: number;
}

export function startPosition(): OthelloPosition {
  const s = definition.initialState({});
  if (!s.ok) throw new Error('no initial state');
  const r = definition.decodeState(s.value, undefined);
  if (!r.ok) throw new Error('bad initial state');
  return r.value;
}

function relative(pos: OthelloPosition): [number, number, number, number] {
  const s = pos.side << 1;
  return [pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s]];
}

/** One self-play game's records (deterministic for a game number and options). */
export function playGame(game: number, options: GameOptions, searcher: Searcher): Int32Array {
  const rng = new Random((options.seed * 1_000_003 + game) >>> 0);
  const pos = startPosition();
  pos.evaluator = evaluatorFor(options.profile);
  pos.probCutConfidence = options.probCut;
  const buffer = new Int32Array(64);
  const openingPlies = options.openMin + rng.below(options.openMax - options.openMin + 1);
  const rows: number[][] = [];
  const sides: number[] = [];
  let exactFrom = -1;
  let exactValue = 0;
  let exactSide = 0;
  const siblings: number[][] = [];
  searcher.tt.clear();
  while (pos.terminal() === NOT_TERMINAL) {
    const row = [...relative(pos), pos.empties, 0, 0, NO_SCORE, game, 0];
    rows.push(row);
    sides.push(pos.side);
    let move: number;
    if (pos.empties <= options.solveEmpties) {
      const solved = solveExactly(pos, null);
      if (solved === null) throw new Error('solver gave no answer');
      if (exactFrom < 0) {
        exactFrom = rows.length - 1;
        exactValue = solved.exactScore!;
        exactSide = pos.side;
      }
      move = solved.move;
      if ((options.siblings ?? 0) > 0 && rng.nextFloat() < options.siblings!) {
        const sibling = siblingRecord(pos, move, game, rng, buffer);
        if (sibling !== null) siblings.push(sibling);
      }
    } else {
      const n = pos.generateMoves(buffer, 0);
      if (n === 1) move = buffer[0];
      else if (pos.ply < openingPlies || rng.nextFloat() < options.epsilon) move = buffer[rng.below(n)];
      else {
        const result = searcher.search(pos, { maxDepth: options.depth, seed: rng.nextU32() });
        move = result.move;
        row[R_SEARCH] = result.score;
      }
    }
    pos.makeMove(move);
  }
  if (exactFrom < 0) {
    exactFrom = rows.length;
    exactValue = pos.finalScore();
    exactSide = pos.side;
  }
  const out = new Int32Array((rows.length + siblings.length) * RECORD_INTS);
  rows.forEach((row, i) => {
    row[R_OUTCOME] = sides[i] === exactSide ? exactValue : -exactValue;
    row[R_EXACT] = i >= exactFrom ? 1 : 0;
    out.set(row, i * RECORD_INTS);
  });
  siblings.forEach((row, i) => out.set(row, (rows.length + i) * RECORD_INTS));
  return out;
}

/**
 * The exact record of the child after a random legal move other than `best` (null when there is no
 * other move, or the child's game is over). The position is left as it was.
 */
function siblingRecord(pos: OthelloPosition, best: number, game: number, rng: Random, buffer: Int32Array): number[] | null {
  const n = pos.generateMoves(buffer, 0);
  if (n < 2) return null;
  let move = buffer[rng.below(n - 1)];
  if (move === best) move = buffer[n - 1];
  pos.makeMove(move);
  let row: number[] | null = null;
  if (pos.terminal() === NOT_TERMINAL) {
    const solved = solveExactly(pos, null);
    if (solved === null) throw new Error('solver gave no answer');
    row = [...relative(pos), pos.empties, solved.exactScore!, 1, NO_SCORE, game, 0];
  }
  pos.unmakeMove(move);
  return row;
}

/** Game numbers of match-record positions start here, apart from any self-play game's number. */
export const RECORD_GAME_BASE = 10_000_000;

/**
 * The positions of played games (othello-match records: `moves`, passes as 'pass'), each distinct position once
 * (the first game to reach it), as chunks of `chunkGames` games. A game's positions up to the first with at most
 * `solveEmpties` empties take that position's exact value (from the side to move) as their outcome; that position is
 * recorded as exact, the later ones are left out (self-play holds solved endgames). Search scores are NO_SCORE, for
 * `relabel`. The games against a real opponent hold the positions that matter in play, which self-play misses.
 */
export function recordPositions(games: readonly (readonly string[])[], dir: string, chunkGames: number, solveEmpties: number,
  print: (line: string) => void): number {
  mkdirSync(dir, { recursive: true });
  const seen = new Set<string>();
  let rows: number[][] = [];
  let total = 0;
  const flush = (chunk: number): void => {
    const all = new Int32Array(rows.length * RECORD_INTS);
    rows.forEach((row, i) => all.set(row, i * RECORD_INTS));
    const path = join(dir, chunkName(chunk));
    writeChunk(path, all);
    print(`${path}: ${rows.length} positions`);
    total += rows.length;
    rows = [];
  };
  games.forEach((moves, g) => {
    const game = RECORD_GAME_BASE + g;
    const pos = startPosition();
    const buffer = new Int32Array(64);
    const gameRows: number[][] = [];
    const sides: number[] = [];
    let exactValue: number | null = null;
    let exactSide = 0;
    for (const name of moves) {
      if (pos.terminal() !== NOT_TERMINAL) throw new Error(`game ${g}: a move after the end`);
      if (pos.empties <= solveEmpties) {
        const solved = solveExactly(pos, null);
        if (solved === null) throw new Error('solver gave no answer');
        exactValue = solved.exactScore!;
        exactSide = pos.side;
        gameRows.push([...relative(pos), pos.empties, exactValue, 1, NO_SCORE, game, 0]);
        sides.push(pos.side);
        break;
      }
      const key = relative(pos).join(',');
      if (!seen.has(key)) {
        seen.add(key);
        gameRows.push([...relative(pos), pos.empties, 0, 0, NO_SCORE, game, 0]);
        sides.push(pos.side);
      }
      const move = name === 'pass' ? PASS_MOVE : parseSquare(name);
      if (!buffer.subarray(0, pos.generateMoves(buffer, 0)).includes(move)) throw new Error(`game ${g}: illegal move '${name}'`);
      pos.makeMove(move);
    }
    if (exactValue === null) {
      if (pos.terminal() === NOT_TERMINAL) throw new Error(`game ${g}: the record ends before the game does`);
      exactValue = pos.finalScore();
      exactSide = pos.side;
    }
    gameRows.forEach((row, i) => {
      row[R_OUTCOME] = sides[i] === exactSide ? exactValue! : -exactValue!;
      rows.push(row);
    });
    if ((g + 1) % chunkGames === 0) flush(Math.floor(g / chunkGames));
  });
  if (rows.length > 0) flush(Math.floor((games.length - 1) / chunkGames));
  return total;
}

/** Writes one chunk file whole (a stopped run never leaves half a chunk). */
function writeChunk(path: string, records: Int32Array): void {
  writeFileSync(`${path}.tmp`, Buffer.from(records.buffer, records.byteOffset, records.byteLength));
  renameSync(`${path}.tmp`, path);
}

function chunkName(chunk: number): string {
  return `chunk-${String(chunk).padStart(6, '0')}.bin`;
}

/** Generates the chunks this part owns that are not on disk yet (write to a temporary name, then rename). */
export function generateGames(
  dir: string,
  games: number,
  chunkGames: number,
  part: number,
  parts: number,
  options: GameOptions,
  print: (line: string) => void,
): void {
  mkdirSync(dir, { recursive: true });
  const searcher = new Searcher(new TranspositionTable(16));
  const chunks = Math.ceil(games / chunkGames);
  const started = Date.now();
  let made = 0;
  for (let chunk = part; chunk < chunks; chunk += parts) {
    const path = join(dir, chunkName(chunk));
    if (existsSync(path)) continue;
    const parts: Int32Array[] = [];
    for (let g = chunk * chunkGames; g < Math.min(games, (chunk + 1) * chunkGames); g++) parts.push(playGame(g, options, searcher));
    const total = parts.reduce((a, p) => a + p.length, 0);
    const all = new Int32Array(total);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    writeChunk(path, all);
    made++;
    print(`${path}: ${parts.length} games, ${total / RECORD_INTS} positions (${((Date.now() - started) / 1000 / made).toFixed(1)} s per chunk)`);
  }
}

function chunkFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /^chunk-\d+\.bin$/.test(f))
    .sort();
}

/** Replaces R_SEARCH of every non-exact record by a depth-`depth` search score (in place). */
export function relabelRecords(records: Int32Array, depth: number, profile: string, searcher: Searcher, probCut = 0): void {
  const pos = startPosition();
  pos.evaluator = evaluatorFor(profile);
  pos.probCutConfidence = probCut;
  let game = -1;
  for (let r = 0; r < records.length; r += RECORD_INTS) {
    if (records[r + R_GAME] !== game) {
      game = records[r + R_GAME];
      searcher.tt.clear();
    }
    if (records[r + R_EXACT] === 1) continue;
    pos.setup(records[r], records[r + 1], records[r + 2], records[r + 3], 0);
    records[r + R_SEARCH] = pos.terminal() === NOT_TERMINAL ? searcher.search(pos, { maxDepth: depth }).score : NO_SCORE;
  }
}

/** Relabels the chunks of `dir` this part owns into `out` (resumable, like generateGames). */
export function relabelChunks(
  dir: string,
  out: string,
  depth: number,
  profile: string,
  part: number,
  parts: number,
  print: (line: string) => void,
  probCut = 0,
): void {
  mkdirSync(out, { recursive: true });
  const searcher = new Searcher(new TranspositionTable(18));
  const started = Date.now();
  let made = 0;
  for (const name of chunkFiles(dir)) {
    const path = join(out, name);
    // Owned by the chunk's number, not its place in the listing: the games may still be written (another part's).
    if (Number(/\d+/.exec(name)![0]) % parts !== part || existsSync(path)) continue;
    const b = readFileSync(join(dir, name));
    const records = new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    relabelRecords(records, depth, profile, searcher, probCut);
    writeChunk(path, records);
    made++;
    print(`${path}: ${records.length / RECORD_INTS} positions (${((Date.now() - started) / 1000 / made).toFixed(1)} s per chunk)`);
  }
}

/** Every record of the chunk files in `dir` (sorted by name), as one array. */
export function loadRecords(dir: string): Int32Array {
  const files = chunkFiles(dir);
  const parts = files.map((f) => {
    const b = readFileSync(join(dir, f));
    return new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  });
  const all = new Int32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/**
 * The move lists of an othello-match record file (JSON lines), leaving out the games whose `opening` (its number in
 * the openings list) is in `excluded`: the openings of a match that will measure the fit.
 */
export function readGameMoves(file: string, excluded: readonly [number, number] = [1, 0]): string[][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (line.trim() === '') return [];
      const { moves, opening } = JSON.parse(line) as { moves?: unknown; opening?: unknown };
      if (!Array.isArray(moves) || !moves.every((m) => typeof m === 'string')) throw new UsageError(`${file}:${i + 1}: no 'moves' list`);
      if (typeof opening === 'number' && opening >= excluded[0] && opening <= excluded[1]) return [];
      return [moves as string[]];
    });
}

const usage = `node dist/tools/othello-data.js games --dir DIR --games N [options]
       node dist/tools/othello-data.js relabel --dir DIR --out DIR --depth N [--part K/M] [--profile NAME]
       node dist/tools/othello-data.js records --records FILE[,FILE...] --dir DIR [--solve-empties N] [--chunk N]

Self-play training positions for the Othello pattern evaluation, in resumable chunk files; relabel
copies them with the playing search's score replaced by a --depth search on every non-exact position;
records takes the distinct positions of played games (othello-match records), for relabel to label.

  --dir DIR             output directory (chunk-NNNNNN.bin files)
  --games N             total games (game numbers 0..N-1)
  --chunk N             games per chunk file (default 100)
  --part K/M            this process makes chunks K-1, K-1+M, ... (default 1/1)
  --open-min N          fewest random opening plies (default 2)
  --open-max N          most random opening plies (default 14)
  --depth N             search depth of the self-play moves (default 2)
  --epsilon X           probability of a random move after the opening (default 0.1)
  --solve-empties N     exact solve (and its optimal line) from N empties (default 14)
  --profile NAME        evaluation of the self-play (or relabelling) search (default: default)
  --probcut X           ProbCut confidence of that search (default 0: full width)
  --siblings X          probability of also recording, at each position of the solver's line, a random
                        other move's child with its exact value (default 0)
  --out DIR             relabel: where the relabelled chunk files go
  --records FILES       records: othello-match JSONL records, comma-separated
  --exclude-openings A-B
                        records: leave out the games of openings A..B (numbered from 0 as in the records),
                        the openings of the match that will measure the fit
  --seed N              seed (default 1)
  -h, --help            this text
`;

const spec = {
  name: 'othello-data',
  usage,
  positionals: true,
  options: {
    dir: { type: 'string' },
    games: { type: 'string' },
    chunk: { type: 'string' },
    part: { type: 'string' },
    'open-min': { type: 'string' },
    'open-max': { type: 'string' },
    depth: { type: 'string' },
    epsilon: { type: 'string' },
    'solve-empties': { type: 'string' },
    profile: { type: 'string' },
    probcut: { type: 'string' },
    siblings: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
    records: { type: 'string' },
    'exclude-openings': { type: 'string' },
  },
} as const;

function main({ values, positionals }: ParsedArgs<typeof spec.options>): void {
  const command = positionals[0];
  if (!['games', 'relabel', 'records'].includes(command) || positionals.length !== 1) {
    throw new UsageError("the command must be 'games', 'relabel' or 'records'");
  }
  if (values.dir === undefined) throw new UsageError('--dir is required');
  if (command === 'records') {
    if (values.records === undefined) throw new UsageError('--records is required');
    const excluded = rangeOption(values, 'exclude-openings') ?? [1, 0];
    const games = values.records.split(',').flatMap((file) => readGameMoves(file, excluded));
    const chunk = intOption(values, 'chunk', 100, 1);
    const total = recordPositions(games, values.dir, chunk, intOption(values, 'solve-empties', 14, 0, 24), console.log);
    console.log(`${games.length} games, ${total} positions`);
    return;
  }
  const { part, parts } = partOption(values, 'part');
  const probCut = numberOption(values, 'probcut', 0, 0, 10);
  if (command === 'relabel') {
    if (values.out === undefined) throw new UsageError('--out is required');
    const depth = intOption(values, 'depth', 6, 1, 20);
    relabelChunks(values.dir, values.out, depth, values.profile ?? 'default', part, parts, console.log, probCut);
    return;
  }
  const games = intOption(values, 'games', 0, 1);
  if (values.games === undefined) throw new UsageError('--games is required');
  const epsilon = values.epsilon === undefined ? 0.1 : Number(values.epsilon);
  if (!(epsilon >= 0 && epsilon <= 1)) throw new UsageError(`--epsilon must be from 0 to 1, got '${values.epsilon}'`);
  const options: GameOptions = {
    openMin: intOption(values, 'open-min', 2, 0, 40),
    openMax: intOption(values, 'open-max', 14, 0, 40),
    depth: intOption(values, 'depth', 2, 1, 20),
    epsilon,
    solveEmpties: intOption(values, 'solve-empties', 14, 0, 24),
    profile: values.profile ?? 'default',
    probCut,
    seed: intOption(values, 'seed', 1),
    siblings: numberOption(values, 'siblings', 0, 0, 1),
  };
  if (options.openMax < options.openMin) throw new UsageError('--open-max must be at least --open-min');
  generateGames(values.dir, games, intOption(values, 'chunk', 100, 1), part, parts, options, console.log);
}

runCliIfMain(import.meta.url, spec, main);
