/**
 * npm run gomoku-fit -- [--records LIST] [--skip N] [--holdout N] [--cells] [--write]
 * npm run gomoku-fit -- --label-depth D --label-out FILE [--label-every N] [--part K/M]
 * npm run gomoku-fit -- --label-engine CMD --label-out FILE [--label-turn-ms T] [--label-every N] [--part K/M]
 * npm run gomoku-fit -- --labels LIST [--search-mix M] [--write]
 *
 * Texel-style fit of the K = 5 pattern evaluation's values (src/games/mnk/pattern-values.json) to
 * finished gomoku games (tools/records/gomoku-*.jsonl and the gomoku-* folders: pbrain-match records).
 *
 * Samples: every position of every game decided by a five on the board (duplicates dropped), from ply
 * --skip on, where the evaluation's heuristic branch applies (the side to move has no five cell and no
 * winning four, the opponent fewer than two five cells), labelled 1 / 0 by the game's result for the
 * side to move. The evaluation is linear in the values: per side, the count of (empty cell, direction)
 * pairs of each line class and of each bonus combination (pattern-tables.ts), eval = tempo * (values ·
 * mover's counts) - values · opponent's counts. Every --holdout-th game is held out.
 *
 * The fit: first the scale K of p = 1 / (1 + exp(-eval / K)) with the hand-set values (golden section on
 * log K), then, with K fixed, the values by Newton's method on the log loss (convex in them; a small
 * ridge keeps the Hessian invertible) for each tempo of 4/4 .. 8/4 (the engine takes quarters), keeping
 * the tempo with the least training loss. Printed: training and held-out log loss of hand-set and fitted
 * values, and the fitted values rounded to integers; --write stores them in pattern-values.json.
 *
 * --cells fits instead one value per cell shape: the multiset of a cell's four line classes (495 of them), so that
 * an open three crossing a broken two is worth its own value, not the sum of the two. Features: per side the count
 * of empty cells of each shape; the tempo stays the file's, the scale K is fitted for the class values first; Newton's
 * method with a ridge pulling each value toward the class sums it replaces (rare shapes keep about those). --write
 * stores them as `cellValues`.
 *
 * --label-depth D --label-out FILE labels every --label-every-th of those positions (staggered by game) with the score
 * of a fresh depth-D search of the shipped engine, one JSON line each (no fit; --part K/M for one of M processes).
 * --labels FILE,... then refines the shipped shape values toward targets mixing the search's probability,
 * sigmoid(score / K), with the game's result (--search-mix), as docs/othello-strength.md's thirteenth round did for
 * Othello: a search's score carries less noise than the result of a game decided many moves later.
 * --label-engine CMD labels them instead by the evaluation a pbrain brain reports (Rapfi's `MESSAGE ... Eval E` line,
 * `M` for a found win) after a turn of --label-turn-ms: labels that see past Kibitz's own search. Their scale to the
 * games' results is fitted as K is (the labels' `engineEval`, sigmoid(engineEval / S)).
 */
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError, intOption, numberOption, partOption, runCliIfMain } from '../src/core/cli.js';
import {
  C_BLOCK4,
  C_FLEX3,
  CELL_KEYS,
  CELL_SHAPE,
  CLASS_COUNT,
  F_FIVE,
  F_WIN4,
  PATTERN_VALUES,
  SHAPE_COUNT,
  SHAPE_NAMES,
  cellValueOf,
  type PatternValues,
} from '../src/games/mnk/pattern-tables.js';
import { PatternBoard } from '../src/games/mnk/patterns.js';
import { MnkPosition } from '../src/games/mnk/position.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { LineProcess } from './line-process.js';
import { type BrainSide, startBrain } from './pbrain-match.js';

const USAGE = `npm run gomoku-fit -- [options]

Fits the K = 5 pattern evaluation's cell values to finished gomoku games (Texel tuning) and reports the
held-out log loss of the hand-set and the fitted values.

Options:
  --records LIST  comma-separated JSONL game records (default: tools/records/gomoku-*.jsonl, then gomoku-*/*.jsonl)
  --skip N        first ply used (default 6)
  --holdout N     every N-th game is held out (default 10)
  --cells         fit one value per cell shape (the multiset of its four line classes) instead of per class
  --write         store the fitted values in src/games/mnk/pattern-values.json
  --label-depth D --label-out FILE
                  label every --label-every N-th position (default 3) by a depth-D search of the shipped engine,
                  appending JSONL to FILE (no fit); --part K/M labels the games of one of M parts
  --label-engine CMD [--label-turn-ms T]
                  label them instead by the evaluation a pbrain brain reports (run by the shell, e.g. Rapfi)
                  after a turn of T ms (default 100)
  --label-offset K  with either: label the positions K after those (another sample of the same games)
  --labels LIST   refine the shipped shape values on labelled positions (comma-separated FILEs), the target mixing
                  the search's probability (--search-mix, default 0.7) with the game's result
  --help          this text
`;

/** Parameters: class values ONE..FIVE (NONE stays 0), then doubleFour, fourThree, doubleThree. */
export const PARAMS = CLASS_COUNT - 1 + 3;
/** Per sample: the mover's counts, the opponent's, the result. */
export const ROW = 2 * PARAMS + 1;

export interface GameRecord {
  readonly size: number;
  readonly rule: number;
  readonly moves: readonly (readonly [number, number])[];
  readonly winner: number | null;
  readonly reason?: string;
  readonly black?: string;
  readonly white?: string;
  readonly opening?: readonly (readonly [number, number])[];
  readonly seed?: number;
  readonly game?: number;
}

/** Parameter vector of a values table (without the tempo). */
export function paramsOf(values: PatternValues): Float64Array {
  return Float64Array.of(...values.classValues.slice(1), values.doubleFour, values.fourThree, values.doubleThree);
}

/** Adds side s's counts (class per empty cell and direction, bonus combinations) to out[at ..]. */
function addCounts(board: PatternBoard, cells: Uint8Array, s: number, out: Float64Array, at: number): void {
  for (let cell = 0; cell < cells.length; cell++) {
    if (cells[cell] !== 0) continue;
    let fours = 0;
    let threes = 0;
    for (let d = 0, rest = board.keys[cell * 2 + s]; d < 4; d++, rest = (rest / CLASS_COUNT) | 0) {
      const c = rest % CLASS_COUNT;
      if (c > 0) out[at + c - 1]++;
      if (c === C_BLOCK4) fours++;
      else if (c === C_FLEX3) threes++;
    }
    const bonus = fours >= 2 ? 0 : fours === 1 && threes > 0 ? 1 : threes >= 2 ? 2 : -1;
    if (bonus >= 0) out[at + CLASS_COUNT - 1 + bonus]++;
  }
}

/**
 * Replays a game decided by a five (none otherwise: the side that made the last move made the five) and calls
 * visit at each sampled position: from ply `skip` on, where the evaluation's heuristic branch applies (the side to move
 * has no five cell and no winning four, the opponent fewer than two five cells); y is the result for the side to move.
 */
function replaySamples(
  game: GameRecord,
  skip: number,
  visit: (board: PatternBoard, cells: Uint8Array, s: number, y: number, ply: number) => void,
): void {
  const moves = game.moves;
  if (game.winner !== (moves.length - 1) % 2) return;
  const n = game.size;
  const cells = new Uint8Array(n * n);
  const board = new PatternBoard(n, n, game.rule === 1, cells);
  for (let ply = 0; ply < moves.length; ply++) {
    const s = ply % 2;
    const o = 1 - s;
    if (ply >= skip && board.count(s, F_FIVE) === 0 && board.count(s, F_WIN4) === 0 && board.count(o, F_FIVE) < 2) {
      visit(board, cells, s, game.winner === s ? 1 : 0, ply);
    }
    const [col, row] = moves[ply];
    const cell = row * n + col;
    cells[cell] = s + 1;
    board.place(cell, s);
  }
}

/** The samples of one game (rows of ROW numbers), none when it was not decided by a five. */
export function gameSamples(game: GameRecord, skip: number): Float64Array[] {
  const rows: Float64Array[] = [];
  replaySamples(game, skip, (board, cells, s, y) => {
    const row = new Float64Array(ROW);
    addCounts(board, cells, s, row, 0);
    addCounts(board, cells, 1 - s, row, PARAMS);
    row[ROW - 1] = y;
    rows.push(row);
  });
  return rows;
}

/** Evaluation of a sample under the parameters and the tempo. */
export function evalOf(row: Float64Array, w: Float64Array, tempo: number): number {
  let own = 0;
  let enemy = 0;
  for (let i = 0; i < PARAMS; i++) {
    own += w[i] * row[i];
    enemy += w[i] * row[PARAMS + i];
  }
  return tempo * own - enemy;
}

/** Mean log loss of p = sigmoid(eval / k) against the results. */
export function logLoss(rows: readonly Float64Array[], w: Float64Array, tempo: number, k: number): number {
  let sum = 0;
  for (const row of rows) {
    const z = evalOf(row, w, tempo) / k;
    const y = row[ROW - 1];
    // log(1 + e^-z) for y = 1, log(1 + e^z) for y = 0, computed without overflow.
    const m = y === 1 ? -z : z;
    sum += m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m));
  }
  return sum / rows.length;
}

/** Gradient of the mean log loss in the parameters (tempo and k fixed). */
export function lossGradient(rows: readonly Float64Array[], w: Float64Array, tempo: number, k: number): Float64Array {
  const g = new Float64Array(PARAMS);
  for (const row of rows) {
    const p = 1 / (1 + Math.exp(-evalOf(row, w, tempo) / k));
    const r = (p - row[ROW - 1]) / k;
    for (let i = 0; i < PARAMS; i++) g[i] += r * (tempo * row[i] - row[PARAMS + i]);
  }
  for (let i = 0; i < PARAMS; i++) g[i] /= rows.length;
  return g;
}

/** The scale k minimising the log loss of fixed values (golden section on log k over [lo, hi]). */
export function fitScale(rows: readonly Float64Array[], w: Float64Array, tempo: number, lo = 1, hi = 1e5): number {
  return minimiseOverScale((k) => logLoss(rows, w, tempo, k), lo, hi);
}

/** Golden-section search for the k in [lo, hi] minimising loss(k), on log k (the loss is unimodal there). */
function minimiseOverScale(loss: (k: number) => number, lo: number, hi: number): number {
  let a = Math.log(lo);
  let b = Math.log(hi);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 80; i++) {
    const c = b - phi * (b - a);
    const d = a + phi * (b - a);
    if (loss(Math.exp(c)) < loss(Math.exp(d))) b = d;
    else a = c;
  }
  return Math.exp((a + b) / 2);
}

/** Newton's method on the log loss in the parameters (tempo and k fixed), from w0. */
export function fitValues(rows: readonly Float64Array[], w0: Float64Array, tempo: number, k: number, iterations = 30): Float64Array {
  const w = Float64Array.from(w0);
  const x = new Float64Array(PARAMS);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(PARAMS);
    const h = new Float64Array(PARAMS * PARAMS);
    for (const row of rows) {
      for (let i = 0; i < PARAMS; i++) x[i] = (tempo * row[i] - row[PARAMS + i]) / k;
      let z = 0;
      for (let i = 0; i < PARAMS; i++) z += w[i] * x[i];
      const p = 1 / (1 + Math.exp(-z));
      const r = p - row[ROW - 1];
      const v = p * (1 - p);
      for (let i = 0; i < PARAMS; i++) {
        g[i] += r * x[i];
        for (let j = 0; j <= i; j++) h[i * PARAMS + j] += v * x[i] * x[j];
      }
    }
    for (let i = 0; i < PARAMS; i++) {
      for (let j = 0; j < i; j++) h[j * PARAMS + i] = h[i * PARAMS + j];
      // A small ridge: classes that never occur keep their values.
      h[i * PARAMS + i] += 1e-6 * rows.length;
    }
    const step = solve(h, g);
    let largest = 0;
    for (let i = 0; i < PARAMS; i++) {
      w[i] -= step[i];
      largest = Math.max(largest, Math.abs(step[i]));
    }
    if (largest < 1e-3) break;
  }
  return w;
}

/** Solves a x = b (Gaussian elimination with partial pivoting). */
export function solve(a: Float64Array, b: Float64Array): Float64Array {
  const n = b.length;
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]) > Math.abs(m[pivot * n + c])) pivot = r;
    if (pivot !== c) {
      for (let j = 0; j < n; j++) [m[c * n + j], m[pivot * n + j]] = [m[pivot * n + j], m[c * n + j]];
      [x[c], x[pivot]] = [x[pivot], x[c]];
    }
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c] / m[c * n + c];
      for (let j = c; j < n; j++) m[r * n + j] -= f * m[c * n + j];
      x[r] -= f * x[c];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    for (let j = r + 1; j < n; j++) x[r] -= m[r * n + j] * x[j];
    x[r] /= m[r * n + r];
  }
  return x;
}

export function defaultRecords(root: string): string[] {
  const dir = `${root}/tools/records`;
  const files = readdirSync(dir).filter((f) => f.startsWith('gomoku-') && f.endsWith('.jsonl')).map((f) => `${dir}/${f}`);
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory() || !folder.name.startsWith('gomoku-')) continue;
    for (const f of readdirSync(`${dir}/${folder.name}`).sort()) if (f.endsWith('.jsonl')) files.push(`${dir}/${folder.name}/${f}`);
  }
  return files;
}

/** A sample of the cell-shape fit: x = tempo * mover's shape counts - opponent's, sparse, and the result. */
export interface ShapeSample {
  readonly index: Int32Array;
  readonly x: Float64Array;
  readonly y: number;
}

/** The samples of one game for the cell-shape fit (the same positions as gameSamples). */
export function shapeSamples(game: GameRecord, skip: number, tempo: number): ShapeSample[] {
  const samples: ShapeSample[] = [];
  const x = new Float64Array(SHAPE_COUNT);
  replaySamples(game, skip, (board, cells, s, y) => samples.push(shapeSample(board, cells, s, tempo, y, x)));
  return samples;
}

/** The shape sample of one position (x: a scratch vector of SHAPE_COUNT). */
function shapeSample(board: PatternBoard, cells: Uint8Array, s: number, tempo: number, y: number, x: Float64Array): ShapeSample {
  x.fill(0);
  for (let cell = 0; cell < cells.length; cell++) {
    if (cells[cell] !== 0) continue;
    x[CELL_SHAPE[board.keys[cell * 2 + s]]] += tempo;
    x[CELL_SHAPE[board.keys[cell * 2 + 1 - s]]] -= 1;
  }
  const index: number[] = [];
  for (let i = 1; i < SHAPE_COUNT; i++) if (x[i] !== 0) index.push(i);
  return { index: Int32Array.from(index), x: Float64Array.from(index, (i) => x[i]), y };
}

/** One position labelled by a fixed-depth search (a line of a --label-out file). */
export interface SearchLabel {
  readonly size: number;
  readonly rule: number;
  /** The moves up to the position. */
  readonly moves: readonly (readonly [number, number])[];
  /** The game's result for the side to move (1 won, 0 lost). */
  readonly result: number;
  /** The search's score for the side to move (engine units; proven results as distance-to-end scores). */
  readonly score: number;
  readonly depth: number;
  /** The position's game is held out of the fit. */
  readonly held: boolean;
  /** Labelled by an engine (--label-engine): its evaluation for the side to move (a found win or loss: +-ENGINE_MATE). */
  readonly engineEval?: number;
}

const ENGINE_SETTLE_MS = 30;
/** A win or loss an engine reports found ('Eval M5', 'Eval -M5'), beyond any scale. */
export const ENGINE_MATE = 1e6;

/**
 * The evaluation in a brain's MESSAGE lines (the last one), or null when it printed none: Rapfi's 'Eval 45', 'Eval -M5'
 * (a loss found), or Kibitz's own 'score 1.5', 'win in 7 plies'.
 */
export function engineEvalOf(lines: readonly string[]): number | null {
  let value: number | null = null;
  for (const line of lines) {
    if (!/^MESSAGE\b/i.test(line)) continue;
    const rapfi = /\bEval\s+([+-]?)(M?)(\d+)/i.exec(line);
    const kibitz = /\bscore\s+(-?\d+(?:\.\d+)?)\b/.exec(line);
    const proven = /\b(win|loss|draw) in \d+ plies/.exec(line);
    if (rapfi !== null) value = (rapfi[1] === '-' ? -1 : 1) * (rapfi[2] !== '' ? ENGINE_MATE : Number(rapfi[3]));
    else if (kibitz !== null) value = Number(kibitz[1]);
    else if (proven !== null) value = proven[1] === 'win' ? ENGINE_MATE : proven[1] === 'loss' ? -ENGINE_MATE : 0;
  }
  return value;
}

/**
 * A started pbrain brain's evaluation of the position after `moves` (sent as BOARD, the side to move's stones as its
 * own), from the side to move's view; null when it answered without one.
 */
export async function engineEvalAfter(brain: LineProcess, moves: readonly (readonly [number, number])[]): Promise<number | null> {
  brain.drain();
  // Only this position's reports: a move answered without one must not take the previous position's.
  const from = brain.lines.length;
  brain.send('BOARD');
  const mover = moves.length % 2;
  moves.forEach(([x, y], ply) => brain.send(`${x},${y},${ply % 2 === mover ? 1 : 2}`));
  brain.send('DONE');
  await brain.next((l) => /^\s*\d+\s*,\s*\d+\s*$/.test(l), 60_000);
  // Rapfi drops a command that arrives while its threads wind down after the answer (pbrain-match's settle gap).
  await new Promise((resolve) => setTimeout(resolve, ENGINE_SETTLE_MS));
  return engineEvalOf(brain.lines.slice(from));
}

/**
 * Labels every `every`-th sampled position like labelPositions, by the evaluation a pbrain brain reports after a turn
 * of `turnMs` (BOARD with the side to move's stones as its own); positions it answers without an evaluation (a
 * move found at once) are left out.
 */
export async function labelByEngine(
  records: readonly string[],
  options: { skip: number; holdout: number; every: number; offset?: number; part: number; parts: number; command: string; turnMs: number },
  out: string,
): Promise<number> {
  const jobs = labelJobs(records, options);
  const brain = new LineProcess('sh', ['-c', options.command]);
  const side: BrainSide = { name: options.command, process: brain, timeLeft: 0, moveMs: [] };
  const lines: string[] = [];
  let labelled = 0;
  let size = -1;
  let rule = -1;
  const started = Date.now();
  for (const job of jobs) {
    if (job.size !== size || job.rule !== rule) {
      await startBrain(side, { size: job.size, turnMs: options.turnMs, matchMs: 0, rule: job.rule });
      size = job.size;
      rule = job.rule;
    } else {
      brain.send('RESTART');
      await brain.next((l) => /^OK\b/.test(l), 60_000);
    }
    const engineEval = await engineEvalAfter(brain, job.moves);
    if (engineEval === null) continue;
    lines.push(JSON.stringify({ ...job, engineEval }));
    labelled++;
    if (lines.length >= 500) {
      appendFileSync(out, `${lines.join('\n')}\n`);
      lines.length = 0;
      console.log(`${labelled} of ${jobs.length} positions labelled, ${((Date.now() - started) / labelled).toFixed(1)} ms each`);
    }
  }
  if (lines.length > 0) appendFileSync(out, `${lines.join('\n')}\n`);
  brain.send('END');
  await brain.close();
  return labelled;
}

/**
 * The positions to label, unlabelled (score and depth 0): every `every`-th sampled position (from `offset`, staggered by
 * game) of the games of part `part` of `parts`, in the records' order.
 */
function labelJobs(
  records: readonly string[],
  options: { skip: number; holdout: number; every: number; offset?: number; part: number; parts: number },
): SearchLabel[] {
  const jobs: SearchLabel[] = [];
  forEachDistinctGame(records, (game, index) => {
    const plies: number[] = [];
    replaySamples(game, options.skip, (_board, _cells, _s, y, ply) => plies.push(y, ply));
    if (plies.length === 0) return false;
    if (index % options.parts !== options.part) return true;
    const held = index % options.holdout === options.holdout - 1;
    for (let i = 0; i < plies.length; i += 2) {
      if ((i / 2 + index) % options.every !== (options.offset ?? 0)) continue;
      jobs.push({ size: game.size, rule: game.rule, moves: game.moves.slice(0, plies[i + 1]), result: plies[i], score: 0, depth: 0, held });
    }
    return true;
  });
  return jobs;
}

/**
 * Labels every `every`-th sampled position (staggered by game) of the games this part owns with a fresh
 * fixed-depth search of the engine as shipped, appending the labels to `out` as JSONL.
 */
export function labelPositions(
  records: readonly string[],
  options: { skip: number; holdout: number; depth: number; every: number; offset?: number; part: number; parts: number },
  out: string,
): number {
  const searcher = new Searcher(new TranspositionTable(16));
  const lines: string[] = [];
  let labelled = 0;
  const started = Date.now();
  for (const job of labelJobs(records, options)) {
    const n = job.size;
    const pos = new MnkPosition(n, n, 5, new Uint8Array(n * n), 0, undefined, job.rule === 1);
    for (const [x, y] of job.moves) pos.makeMove(y * n + x);
    searcher.tt.clear();
    const score = searcher.search(pos, { maxDepth: options.depth }).score;
    lines.push(JSON.stringify({ ...job, score, depth: options.depth }));
    labelled++;
    if (lines.length >= 1000) {
      appendFileSync(out, `${lines.join('\n')}\n`);
      lines.length = 0;
      console.log(`${labelled} positions labelled, ${((Date.now() - started) / labelled).toFixed(1)} ms each`);
    }
  }
  if (lines.length > 0) appendFileSync(out, `${lines.join('\n')}\n`);
  return labelled;
}

/**
 * Shape samples of labelled positions, the target y = mix * sigmoid(score / k) + (1 - mix) * result (a proven
 * result's score is beyond any scale: 0 or 1).
 */
export function labelSamples(
  labels: readonly SearchLabel[],
  k: number,
  mix: number,
  tempo: number,
  engineScale = 1,
): { train: ShapeSample[]; test: ShapeSample[] } {
  const train: ShapeSample[] = [];
  const test: ShapeSample[] = [];
  const x = new Float64Array(SHAPE_COUNT);
  for (const label of labels) {
    const n = label.size;
    const cells = new Uint8Array(n * n);
    const board = new PatternBoard(n, n, label.rule === 1, cells);
    for (let ply = 0; ply < label.moves.length; ply++) {
      const cell = label.moves[ply][1] * n + label.moves[ply][0];
      cells[cell] = (ply % 2) + 1;
      board.place(cell, ply % 2);
    }
    const searched = 1 / (1 + Math.exp(label.engineEval !== undefined ? -label.engineEval / engineScale : -label.score / k));
    const y = mix * searched + (1 - mix) * label.result;
    (label.held ? test : train).push(shapeSample(board, cells, label.moves.length % 2, tempo, y, x));
  }
  return { train, test };
}

/** Mean log loss of p = sigmoid(w · x / k) on the samples. */
export function shapeLoss(samples: readonly ShapeSample[], w: Float64Array, k: number): number {
  let sum = 0;
  for (const { index, x, y } of samples) {
    let z = 0;
    for (let i = 0; i < index.length; i++) z += w[index[i]] * x[i];
    z /= k;
    // softplus(z) - y z: the log loss for a result (y 0 or 1) and for a search's probability alike.
    sum += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - y * z;
  }
  return sum / samples.length;
}

/**
 * The shape values by Newton's method on the log loss plus ridge * rows / K^2 * |w - prior|^2 (the prior: the class
 * sums of the current values, shape 0, no stone near, fixed at 0).
 */
export function fitShapes(samples: readonly ShapeSample[], prior: Float64Array, k: number, ridge: number, iterations = 20): Float64Array {
  const n = SHAPE_COUNT;
  const w = Float64Array.from(prior);
  const lambda = (ridge * samples.length) / (k * k);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(n);
    const h = new Float64Array(n * n);
    for (const { index, x, y } of samples) {
      let z = 0;
      for (let i = 0; i < index.length; i++) z += w[index[i]] * x[i];
      const p = 1 / (1 + Math.exp(-z / k));
      const r = (p - y) / k;
      const v = (p * (1 - p)) / (k * k);
      for (let a = 0; a < index.length; a++) {
        g[index[a]] += r * x[a];
        const row = index[a] * n;
        const va = v * x[a];
        for (let b = 0; b < index.length; b++) h[row + index[b]] += va * x[b];
      }
    }
    for (let i = 0; i < n; i++) {
      g[i] += lambda * (w[i] - prior[i]);
      // A shape never seen (no curvature) keeps its value without ridge too.
      h[i * n + i] += lambda + (h[i * n + i] === 0 ? 1 : 0);
    }
    g[0] = 0;
    for (let j = 0; j < n; j++) h[j] = h[j * n] = 0;
    h[0] = 1;
    const step = solve(h, g);
    let largest = 0;
    for (let i = 0; i < n; i++) {
      w[i] -= step[i];
      largest = Math.max(largest, Math.abs(step[i]));
    }
    // Converged: no value moves by a thousandth of the scale (under 3 units here; the file stores integers).
    if (largest < 1e-3 * k) break;
  }
  return w;
}

/** The scale k minimising the shape loss of fixed values (golden section on log k over [lo, hi]). */
export function fitShapeScale(samples: readonly ShapeSample[], w: Float64Array, lo = 1, hi = 1e5): number {
  return minimiseOverScale((k) => shapeLoss(samples, w, k), lo, hi);
}

/** The current values per shape (the class sums and bonuses of `values`). */
export function shapePrior(values: PatternValues): Float64Array {
  const prior = new Float64Array(SHAPE_COUNT);
  for (let key = 0; key < CELL_KEYS; key++) prior[CELL_SHAPE[key]] = cellValueOf(key, values);
  return prior;
}

async function main({ values }: { values: Record<string, unknown> }): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const skip = intOption(values, 'skip', 6, 0, 200);
  const holdout = intOption(values, 'holdout', 10, 2, 1000);
  const records = typeof values.records === 'string' ? values.records.split(',') : defaultRecords(root);
  if (values['label-depth'] !== undefined) {
    if (typeof values['label-out'] !== 'string') throw new UsageError('--label-depth needs --label-out FILE');
    const depth = intOption(values, 'label-depth', 8, 1, 30);
    const every = intOption(values, 'label-every', 3, 1, 1000);
    const offset = intOption(values, 'label-offset', 0, 0, every - 1);
    const labelled = labelPositions(records, { skip, holdout, depth, every, offset, ...partOption(values, 'part') }, values['label-out']);
    console.log(`${labelled} positions labelled by depth-${depth} searches in ${values['label-out']}`);
    return;
  }
  if (values['label-engine'] !== undefined) {
    if (typeof values['label-out'] !== 'string') throw new UsageError('--label-engine needs --label-out FILE');
    const command = String(values['label-engine']);
    const turnMs = intOption(values, 'label-turn-ms', 100, 10, 60_000);
    const every = intOption(values, 'label-every', 3, 1, 1000);
    const offset = intOption(values, 'label-offset', 0, 0, every - 1);
    const options = { skip, holdout, every, offset, command, turnMs, ...partOption(values, 'part') };
    const labelled = await labelByEngine(records, options, values['label-out']);
    console.log(`${labelled} positions labelled by '${command}' in ${values['label-out']}`);
    return;
  }
  if (typeof values.labels === 'string') {
    fitLabelled(root, values.labels.split(','), numberOption(values, 'search-mix', 0.7, 0, 1), values.write === true);
    return;
  }
  if (values.cells === true) {
    fitCells(root, records, skip, holdout, values.write === true);
    return;
  }
  const { train, test } = readSamples(records, holdout, (game) => gameSamples(game, skip));
  const hand = paramsOf(PATTERN_VALUES);
  const handTempo = PATTERN_VALUES.tempoQuarters / 4;
  const k = fitScale(train, hand, handTempo);
  const handLoss = `train ${logLoss(train, hand, handTempo, k).toFixed(4)}, held out ${logLoss(test, hand, handTempo, k).toFixed(4)}`;
  console.log(`scale K = ${k.toFixed(1)}; hand-set: ${handLoss}`);
  let best: { w: Float64Array; quarters: number; loss: number } | undefined;
  for (let quarters = 4; quarters <= 8; quarters++) {
    const w = fitValues(train, hand, quarters / 4, k);
    const loss = logLoss(train, w, quarters / 4, k);
    console.log(`tempo ${quarters}/4: train ${loss.toFixed(4)}, held out ${logLoss(test, w, quarters / 4, k).toFixed(4)}`);
    if (best === undefined || loss < best.loss) best = { w, quarters, loss };
  }
  const w = best!.w.map((v) => Math.max(0, Math.round(v)));
  const fitted: PatternValues = {
    classValues: [0, ...w.slice(0, CLASS_COUNT - 1)],
    doubleFour: w[CLASS_COUNT - 1],
    fourThree: w[CLASS_COUNT],
    doubleThree: w[CLASS_COUNT + 1],
    tempoQuarters: best!.quarters,
  };
  const tempo = fitted.tempoQuarters / 4;
  console.log(`fitted (rounded): train ${logLoss(train, w, tempo, k).toFixed(4)}, held out ${logLoss(test, w, tempo, k).toFixed(4)}`);
  console.log(JSON.stringify(fitted));
  if (values.write === true) {
    const target = `${root}/src/games/mnk/pattern-values.json`;
    const previous = JSON.parse(readFileSync(target, 'utf8')) as Record<string, unknown>;
    writeFileSync(target, `${JSON.stringify({ ...previous, ...fitted }, null, 2)}\n`);
    console.log(`wrote ${target}`);
    // The evaluation reads the shape values when the file has them: the class values are then their prior only.
    if (previous.cellValues !== undefined) console.log('the cellValues were kept: refit them on these values with --cells --write');
  }
}

/**
 * The samples of every game in the record files (each game once, by its moves), split by game: every holdout-th game
 * that gives samples is held out.
 */
export function readSamples<T>(
  records: readonly string[],
  holdout: number,
  samplesOf: (game: GameRecord) => T[],
  gamesLabel = 'games decided by a five',
): { train: T[]; test: T[] } {
  const train: T[] = [];
  const test: T[] = [];
  const games = forEachDistinctGame(records, (game, index) => {
    const samples = samplesOf(game);
    if (samples.length > 0) (index % holdout === holdout - 1 ? test : train).push(...samples);
    return samples.length > 0;
  });
  console.log(`${games} ${gamesLabel}, ${train.length} training and ${test.length} held-out positions`);
  return { train, test };
}

/** The non-blank lines of a JSONL file named by an option. */
function readLines(file: string, option: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`${option}: cannot read ${file}`);
  }
  return text.split('\n').filter((line) => line.trim() !== '');
}

/**
 * Calls visit on every game of the record files once (by its moves) with the count of games before it that visit
 * accepted (returned true for); returns the count accepted.
 */
function forEachDistinctGame(records: readonly string[], visit: (game: GameRecord, index: number) => boolean): number {
  const seen = new Set<string>();
  let games = 0;
  for (const file of records) {
    for (const line of readLines(file, '--records')) {
      const game = JSON.parse(line) as GameRecord;
      const id = `${game.size}/${game.rule}/${JSON.stringify(game.moves)}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (visit(game, games)) games++;
    }
  }
  return games;
}

/** --cells: one value per cell shape, from the same games (read again as sparse shape samples). */
function fitCells(root: string, records: readonly string[], skip: number, holdout: number, write: boolean): void {
  const { train, test } = readSamples(records, holdout, (game) => shapeSamples(game, skip, PATTERN_VALUES.tempoQuarters / 4));
  // The prior: the class values and bonuses (the file's cellValues, if any, are replaced, not refined).
  const prior = shapePrior(PATTERN_VALUES);
  const k = fitShapeScale(train, prior);
  const priorLoss = `train ${shapeLoss(train, prior, k).toFixed(4)}, held out ${shapeLoss(test, prior, k).toFixed(4)}`;
  console.log(`class values, tempo ${PATTERN_VALUES.tempoQuarters}/4, scale K = ${k.toFixed(1)}: ${priorLoss}`);
  const shipped = PATTERN_VALUES.cellValues;
  if (shipped !== undefined) {
    // The values the engine reads now, on the same held-out positions (a refit is judged against them).
    const current = Float64Array.from(SHAPE_NAMES, (name) => shipped[name]);
    const kc = fitShapeScale(train, current);
    const losses = `train ${shapeLoss(train, current, kc).toFixed(4)}, held out ${shapeLoss(test, current, kc).toFixed(4)}`;
    console.log(`the file's shape values, scale K = ${kc.toFixed(1)}: ${losses}`);
  }
  const w = fitShapes(train, prior, k, SHAPE_RIDGE).map((v) => Math.round(v));
  console.log(`${SHAPE_COUNT} shape values (rounded): train ${shapeLoss(train, w, k).toFixed(4)}, held out ${shapeLoss(test, w, k).toFixed(4)}`);
  if (write) writeShapeValues(root, w);
}

/**
 * --labels: the shipped shape values refined on positions labelled by searches (--label-depth): the scale K of the
 * shipped values on the games' results, then Newton's method toward the mixed targets with the ridge pulling toward
 * the shipped values. Reports the held-out loss against the results alone (the measure of the outcome fits) and
 * against the mixed targets.
 */
function fitLabelled(root: string, files: readonly string[], mix: number, write: boolean): void {
  const labels: SearchLabel[] = [];
  for (const file of files) for (const line of readLines(file, '--labels')) labels.push(JSON.parse(line) as SearchLabel);
  const shipped = PATTERN_VALUES.cellValues;
  if (shipped === undefined) throw new UsageError('--labels refines the shipped cellValues: fit them first with --cells --write');
  const tempo = PATTERN_VALUES.tempoQuarters / 4;
  const current = Float64Array.from(SHAPE_NAMES, (name) => shipped[name]);
  const results = labelSamples(labels, 1, 0, tempo);
  const k = fitShapeScale(results.train, current);
  // Engine labels: their own scale S to the games' results (sigmoid(engineEval / S)).
  const engineLabels = labels.flatMap((label) => (label.engineEval !== undefined && !label.held ? [[label.engineEval, label.result]] : []));
  const engineLoss = (scale: number): number => {
    let sum = 0;
    for (const [value, result] of engineLabels) {
      const p = Math.min(1 - 1e-9, Math.max(1e-9, 1 / (1 + Math.exp(-value / scale))));
      sum -= result * Math.log(p) + (1 - result) * Math.log(1 - p);
    }
    return sum / Math.max(1, engineLabels.length);
  };
  const engineScale = engineLabels.length > 0 ? minimiseOverScale(engineLoss, 1, 1e5) : 1;
  if (engineLabels.length > 0) {
    console.log(`engine labels: scale S = ${engineScale.toFixed(1)}, their log loss on the results ${engineLoss(engineScale).toFixed(4)}`);
  }
  const mixed = labelSamples(labels, k, mix, tempo, engineScale);
  console.log(`${labels.length} labelled positions (${mixed.train.length} training, ${mixed.test.length} held out), scale K = ${k.toFixed(1)}`);
  const report = (name: string, w: Float64Array): void =>
    console.log(
      `${name}: results train ${shapeLoss(results.train, w, k).toFixed(4)}, held out ${shapeLoss(results.test, w, k).toFixed(4)}; ` +
        `mixed targets (search ${mix}) train ${shapeLoss(mixed.train, w, k).toFixed(4)}, held out ${shapeLoss(mixed.test, w, k).toFixed(4)}`,
    );
  report('shipped shape values', current);
  const w = fitShapes(mixed.train, current, k, SHAPE_RIDGE).map((v) => Math.round(v));
  report('refined (rounded)', w);
  if (write) writeShapeValues(root, w);
}

/** Stores the shape values as pattern-values.json's cellValues (the rest of the file kept). */
function writeShapeValues(root: string, w: Float64Array): void {
  const target = `${root}/src/games/mnk/pattern-values.json`;
  const previous = JSON.parse(readFileSync(target, 'utf8')) as Record<string, unknown>;
  const cellValues: Record<string, number> = {};
  for (let i = 0; i < SHAPE_COUNT; i++) cellValues[SHAPE_NAMES[i]] = w[i];
  writeFileSync(target, `${JSON.stringify({ ...previous, cellValues }, null, 2)}\n`);
  console.log(`wrote ${target}`);
}

/** The shape fit's ridge (relative to the rows): enough to keep rare shapes near their class sums. */
const SHAPE_RIDGE = 1e-4;

runCliIfMain(
  import.meta.url,
  {
    name: 'npm run gomoku-fit',
    usage: USAGE,
    options: {
      records: { type: 'string' },
      skip: { type: 'string' },
      holdout: { type: 'string' },
      cells: { type: 'boolean' },
      write: { type: 'boolean' },
      'label-depth': { type: 'string' },
      'label-every': { type: 'string' },
      'label-out': { type: 'string' },
      'label-engine': { type: 'string' },
      'label-turn-ms': { type: 'string' },
      'label-offset': { type: 'string' },
      part: { type: 'string' },
      labels: { type: 'string' },
      'search-mix': { type: 'string' },
    },
  },
  main,
);
