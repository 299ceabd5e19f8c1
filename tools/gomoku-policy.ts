/**
 * npm run gomoku-policy -- [--records LIST] [--teacher NAME] [--holdout N] [--write]
 *
 * Fits the K = 5 pattern path's move-ordering policy (pattern-values.json `policy`) to a strong engine's moves: the
 * quiet moves the teacher (by default Rapfi, named in the pbrain-match records) played in the repository's gomoku
 * games. The policy ranks the quiet candidates (empty cells within two of a stone that make no five, four or open
 * three for the mover) by own[shape for the mover] + enemy[shape for the opponent] + far (when no stone is in the
 * cell's eight neighbours) + a term by the cell's distance from the opponent's last move and one by its distance from
 * the mover's own (1 to 5, 6 or more) + a term for each of its four lines (the four cells on each side, from the mover's
 * side; a line and its reverse share one): a softmax over the position's candidates, fitted by L-BFGS on the log
 * likelihood of the teacher's move with a small ridge. Every --holdout-th game is held out. Printed: how often the
 * teacher's move is the first, in the first 12 and in the first 24 of the hand-set hints (on the ring-1 candidates the
 * engine had before) and of the fitted policy; --write stores the policy in hint units (POLICY_UNITS_PER_LOGIT).
 *
 * Samples: the teacher to move, after the opening, no five cell for either side and no winning-four cell for the
 * opponent (the search's move list is forced there), the move played a quiet one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { intOption, numberOption, runCliIfMain } from '../src/core/cli.js';
import {
  CELL_SHAPE,
  F_FIVE,
  F_FOUR,
  F_THREE,
  F_WIN4,
  LAST_MOVE_BUCKETS,
  LAST_MOVE_UNKNOWN,
  PATTERN_VALUES,
  POLICY_LINE_CODES,
  POLICY_UNITS_PER_LOGIT,
  type PolicyValues,
  SHAPE_COUNT,
  SHAPE_NAMES,
  canonicalLine,
  handSetHint,
  lastMoveBucket,
  lineName,
  parseLineName,
  policyLine,
  swapLineColours,
} from '../src/games/mnk/pattern-tables.js';
import { PatternBoard } from '../src/games/mnk/patterns.js';
import { type GameRecord, defaultRecords, readSamples } from './gomoku-fit.js';

const USAGE = `npm run gomoku-policy -- [options]

Fits the K = 5 move-ordering policy to the quiet moves a strong engine played in the recorded games and reports
how often its move ranks first, in the first 12 and in the first 24 under the hand-set hints and the fitted policy.

Options:
  --records LIST  comma-separated JSONL game records (default: tools/records/gomoku-*.jsonl, then gomoku-*/*.jsonl)
  --teacher NAME  the player whose moves are fitted: records whose black or white name contains NAME (default rapfi)
  --holdout N     every N-th game is held out (default 10)
  --ridge X       ridge on the mean log likelihood (default 1e-4)
  --write         store the policy in src/games/mnk/pattern-values.json
  --help          this text
`;

/**
 * Parameters: own[shape], enemy[shape], far, a term per distance bucket from the opponent's and the mover's last move,
 * then one per policy line (only the canonical ones are used).
 */
export const FAR = 2 * SHAPE_COUNT;
export const LAST_OPPONENT = FAR + 1;
export const LAST_OWN = LAST_OPPONENT + LAST_MOVE_BUCKETS;
export const LINES = LAST_OWN + LAST_MOVE_BUCKETS;
export const POLICY_PARAMS = LINES + POLICY_LINE_CODES;
/** Features of a candidate: own shape, enemy shape, far, two last-move buckets, four lines. */
const MAX_FEATURES = 9;
const TACTICAL = F_FIVE | F_FOUR | F_THREE | F_WIN4;

/**
 * One position: per quiet candidate its mover's shape, opponent's shape, far flag, distance buckets from the opponent's
 * and the mover's last move (lastMoveBucket; LAST_MOVE_UNKNOWN before there was one), its four lines (canonicalLine
 * from the mover's side, four entries a candidate) and hand-set hint; the teacher's move.
 */
export interface PolicySample {
  readonly own: Int32Array;
  readonly enemy: Int32Array;
  readonly far: Uint8Array;
  readonly lastOpponent: Uint8Array;
  readonly lastOwn: Uint8Array;
  readonly lines: Int32Array;
  readonly hand: Int32Array;
  readonly played: number;
}

/** The teacher's colours in a record: bit 0 black, bit 1 white (both in the teacher's games against itself), 0 when no name contains `teacher`. */
export function teacherSides(game: GameRecord, teacher: string): number {
  const name = teacher.toLowerCase();
  return ((game.black ?? '').toLowerCase().includes(name) ? 1 : 0) | ((game.white ?? '').toLowerCase().includes(name) ? 2 : 0);
}

/** The policy samples of one game: the teacher's quiet moves after the opening. */
export function policySamples(game: GameRecord, teacher: string): PolicySample[] {
  const sides = teacherSides(game, teacher);
  if (sides === 0) return [];
  const n = game.size;
  const cells = new Uint8Array(n * n);
  const board = new PatternBoard(n, n, game.rule === 1, cells);
  const samples: PolicySample[] = [];
  const opening = game.opening?.length ?? 0;
  for (let ply = 0; ply < game.moves.length; ply++) {
    const s = ply % 2;
    const o = 1 - s;
    const [col, row] = game.moves[ply];
    const move = row * n + col;
    const forced = board.count(s, F_FIVE) > 0 || board.count(o, F_FIVE) > 0 || board.count(o, F_WIN4) > 0;
    if (((sides >> s) & 1) !== 0 && ply >= opening && ply > 0 && !forced && (board.flags(move, s) & TACTICAL) === 0) {
      const sample = positionSample(board, cells, n, s, move, game.moves[ply - 1], ply >= 2 ? game.moves[ply - 2] : null);
      if (sample !== null) samples.push(sample);
    }
    cells[move] = s + 1;
    board.place(move, s);
  }
  return samples;
}

/** The quiet candidates of a position and the index of `move` among them (null when it is not one: a far move). */
function positionSample(
  board: PatternBoard,
  cells: Uint8Array,
  n: number,
  s: number,
  move: number,
  opponentLast: readonly [number, number],
  ownLast: readonly [number, number] | null,
): PolicySample | null {
  const own: number[] = [];
  const enemy: number[] = [];
  const far: number[] = [];
  const lastOpponent: number[] = [];
  const lastOwn: number[] = [];
  const lines: number[] = [];
  const hand: number[] = [];
  let played = -1;
  for (let cell = 0; cell < n * n; cell++) {
    if (cells[cell] !== 0 || (board.flags(cell, s) & TACTICAL) !== 0) continue;
    const distance = stoneDistance(cells, n, cell);
    if (distance > 2) continue;
    if (cell === move) played = own.length;
    const ownKey = board.keys[cell * 2 + s];
    const enemyKey = board.keys[cell * 2 + 1 - s];
    own.push(CELL_SHAPE[ownKey]);
    enemy.push(CELL_SHAPE[enemyKey]);
    far.push(distance === 2 ? 1 : 0);
    const row = (cell / n) | 0;
    const col = cell - row * n;
    lastOpponent.push(lastMoveBucket(Math.max(Math.abs(opponentLast[0] - col), Math.abs(opponentLast[1] - row))));
    lastOwn.push(ownLast === null ? LAST_MOVE_UNKNOWN : lastMoveBucket(Math.max(Math.abs(ownLast[0] - col), Math.abs(ownLast[1] - row))));
    for (let d = 0; d < 4; d++) {
      const line = policyLine(board.codes[cell * 4 + d]);
      lines.push(canonicalLine(s === 0 ? line : swapLineColours(line)));
    }
    // The engine's quiet hint before the policy (pattern-search.ts patternHint).
    hand.push(handSetHint(ownKey, enemyKey));
  }
  if (played < 0) return null;
  return {
    own: Int32Array.from(own),
    enemy: Int32Array.from(enemy),
    far: Uint8Array.from(far),
    lastOpponent: Uint8Array.from(lastOpponent),
    lastOwn: Uint8Array.from(lastOwn),
    lines: Int32Array.from(lines),
    hand: Int32Array.from(hand),
    played,
  };
}

/** Chebyshev distance from a cell to the nearest stone, 3 when none is within 2. */
function stoneDistance(cells: Uint8Array, n: number, cell: number): number {
  const r = (cell / n) | 0;
  const c = cell - r * n;
  let best = 3;
  for (let dr = -2; dr <= 2; dr++) {
    for (let dc = -2; dc <= 2; dc++) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr < 0 || rr >= n || cc < 0 || cc >= n || cells[rr * n + cc] === 0) continue;
      best = Math.min(best, Math.max(Math.abs(dr), Math.abs(dc)));
    }
  }
  return best;
}

/** Writes the parameter indices of candidate i's features into out; returns how many. */
function candidateFeatures(sample: PolicySample, i: number, out: Int32Array): number {
  let count = 0;
  out[count++] = sample.own[i];
  out[count++] = SHAPE_COUNT + sample.enemy[i];
  if (sample.far[i] === 1) out[count++] = FAR;
  if (sample.lastOpponent[i] !== LAST_MOVE_UNKNOWN) out[count++] = LAST_OPPONENT + sample.lastOpponent[i];
  if (sample.lastOwn[i] !== LAST_MOVE_UNKNOWN) out[count++] = LAST_OWN + sample.lastOwn[i];
  for (let d = 0; d < 4; d++) out[count++] = LINES + sample.lines[i * 4 + d];
  return count;
}

const featureScratch = new Int32Array(MAX_FEATURES);

/** Fills out[0 ..] with each candidate's policy score (logits) under w; returns the candidate count. */
function policyScores(sample: PolicySample, w: Float64Array, out: Float64Array): number {
  const count = sample.own.length;
  for (let i = 0; i < count; i++) {
    let score = 0;
    for (let f = 0, features = candidateFeatures(sample, i, featureScratch); f < features; f++) score += w[featureScratch[f]];
    out[i] = score;
  }
  return count;
}

/** Rank of the played move among the scores (ties count against it: the engine's order among equals is arbitrary). */
function rankOfPlayed(scores: Float64Array, count: number, played: number): number {
  let rank = 0;
  for (let i = 0; i < count; i++) if (i !== played && scores[i] >= scores[played]) rank++;
  return rank;
}

export interface RankSummary {
  readonly positions: number;
  readonly first: number;
  readonly top12: number;
  readonly top24: number;
}

/** How often the teacher's move ranks first / in the first 12 / 24, under the policy w or (w null) the hand-set hints on ring-1 cells. */
export function rankSummary(samples: readonly PolicySample[], w: Float64Array | null): RankSummary {
  let first = 0;
  let top12 = 0;
  let top24 = 0;
  const scores = new Float64Array(maxCandidates(samples));
  for (const sample of samples) {
    const count = sample.own.length;
    if (w !== null) policyScores(sample, w, scores);
    // The hand-set hints never saw a far cell: they were not candidates.
    else for (let i = 0; i < count; i++) scores[i] = sample.far[i] === 1 ? -Infinity : sample.hand[i];
    if (scores[sample.played] === -Infinity) continue;
    const rank = rankOfPlayed(scores, count, sample.played);
    if (rank === 0) first++;
    if (rank < 12) top12++;
    if (rank < 24) top24++;
  }
  return { positions: samples.length, first: first / samples.length, top12: top12 / samples.length, top24: top24 / samples.length };
}

function maxCandidates(samples: readonly PolicySample[]): number {
  let most = 1;
  for (const s of samples) most = Math.max(most, s.own.length);
  return most;
}

/** Mean negative log likelihood of the teacher's moves under the policy, plus ridge / 2 * |w|^2. */
export function policyLoss(samples: readonly PolicySample[], w: Float64Array, ridge = 0): number {
  return lossAndGradient(samples, w, ridge, null);
}

/** policyLoss, and its gradient into `gradient` unless null. */
function lossAndGradient(samples: readonly PolicySample[], w: Float64Array, ridge: number, gradient: Float64Array | null): number {
  const scores = new Float64Array(maxCandidates(samples));
  if (gradient !== null) gradient.fill(0);
  let sum = 0;
  for (const sample of samples) {
    const count = policyScores(sample, w, scores);
    let top = -Infinity;
    for (let i = 0; i < count; i++) top = Math.max(top, scores[i]);
    let z = 0;
    for (let i = 0; i < count; i++) z += Math.exp(scores[i] - top);
    sum += Math.log(z) + top - scores[sample.played];
    if (gradient === null) continue;
    // d/dw: E[x] - x_played.
    for (let i = 0; i < count; i++) {
      const p = Math.exp(scores[i] - top) / z - (i === sample.played ? 1 : 0);
      for (let f = 0, features = candidateFeatures(sample, i, featureScratch); f < features; f++) gradient[featureScratch[f]] += p;
    }
  }
  let norm = 0;
  for (let i = 0; i < w.length; i++) norm += w[i] * w[i];
  if (gradient !== null) for (let i = 0; i < w.length; i++) gradient[i] = gradient[i] / samples.length + ridge * w[i];
  return sum / samples.length + (ridge / 2) * norm;
}

/** Pairs of L-BFGS's curvature memory. */
const LBFGS_MEMORY = 10;

/**
 * The policy by L-BFGS on policyLoss (convex; the ridge also pins the constant the softmax cannot see, and the lines
 * never seen at 0), from 0, with a backtracking line search; stops when no term's gradient reaches 1e-7.
 */
export function fitPolicy(samples: readonly PolicySample[], ridge: number, iterations = 300): Float64Array {
  const n = POLICY_PARAMS;
  const w = new Float64Array(n);
  const g = new Float64Array(n);
  let loss = lossAndGradient(samples, w, ridge, g);
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(LBFGS_MEMORY);
  const trial = new Float64Array(n);
  const trialGradient = new Float64Array(n);
  const dot = (a: Float64Array, b: Float64Array): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += a[i] * b[i];
    return sum;
  };
  for (let it = 0; it < iterations; it++) {
    let largest = 0;
    for (let i = 0; i < n; i++) largest = Math.max(largest, Math.abs(g[i]));
    if (largest < 1e-7) break;
    // Two-loop recursion: direction = -H g.
    const d = Float64Array.from(g, (v) => -v);
    for (let k = s.length - 1; k >= 0; k--) {
      alpha[k] = rho[k] * dot(s[k], d);
      for (let i = 0; i < n; i++) d[i] -= alpha[k] * y[k][i];
    }
    const scale = s.length > 0 ? dot(s[s.length - 1], y[y.length - 1]) / dot(y[y.length - 1], y[y.length - 1]) : 1 / Math.sqrt(dot(g, g));
    for (let i = 0; i < n; i++) d[i] *= scale;
    for (let k = 0; k < s.length; k++) {
      const beta = rho[k] * dot(y[k], d);
      for (let i = 0; i < n; i++) d[i] += (alpha[k] - beta) * s[k][i];
    }
    const slope = dot(g, d);
    let step = 1;
    let next = Infinity;
    for (let halvings = 0; halvings < 40; halvings++, step /= 2) {
      for (let i = 0; i < n; i++) trial[i] = w[i] + step * d[i];
      next = lossAndGradient(samples, trial, ridge, trialGradient);
      if (next <= loss + 1e-4 * step * slope) break;
    }
    if (!(next < loss)) break;
    const sk = new Float64Array(n);
    const yk = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      sk[i] = trial[i] - w[i];
      yk[i] = trialGradient[i] - g[i];
    }
    const sy = dot(sk, yk);
    if (sy > 0) {
      if (s.length === LBFGS_MEMORY) {
        s.shift();
        y.shift();
        rho.shift();
      }
      s.push(sk);
      y.push(yk);
      rho.push(1 / sy);
    }
    w.set(trial);
    g.set(trialGradient);
    loss = next;
  }
  return w;
}

/** The policy in hint units, as pattern-values.json stores it. */
export function policyValues(w: Float64Array): PolicyValues {
  const own: Record<string, number> = {};
  const enemy: Record<string, number> = {};
  const units = (v: number): number => Math.round(v * POLICY_UNITS_PER_LOGIT);
  for (let i = 0; i < SHAPE_COUNT; i++) {
    own[SHAPE_NAMES[i]] = units(w[i]);
    enemy[SHAPE_NAMES[i]] = units(w[SHAPE_COUNT + i]);
  }
  const buckets = (from: number): number[] => Array.from({ length: LAST_MOVE_BUCKETS }, (_, b) => units(w[from + b]));
  // The lines whose term rounds to something, in the order of their codes.
  const lines: Record<string, number> = {};
  for (let line = 0; line < POLICY_LINE_CODES; line++) if (units(w[LINES + line]) !== 0) lines[lineName(line)] = units(w[LINES + line]);
  return { far: units(w[FAR]), own, enemy, lastOpponent: buckets(LAST_OPPONENT), lastOwn: buckets(LAST_OWN), lines };
}

/** policyValues' inverse: the file's policy as logits (a last-move table or line the file lacks reads as 0). */
export function policyWeights(values: PolicyValues): Float64Array {
  const w = new Float64Array(POLICY_PARAMS);
  for (let i = 0; i < SHAPE_COUNT; i++) {
    w[i] = values.own[SHAPE_NAMES[i]];
    w[SHAPE_COUNT + i] = values.enemy[SHAPE_NAMES[i]];
  }
  w[FAR] = values.far;
  for (let b = 0; b < LAST_MOVE_BUCKETS; b++) {
    w[LAST_OPPONENT + b] = values.lastOpponent?.[b] ?? 0;
    w[LAST_OWN + b] = values.lastOwn?.[b] ?? 0;
  }
  for (const [name, value] of Object.entries(values.lines ?? {})) w[LINES + parseLineName(name)] = value;
  return w.map((v) => v / POLICY_UNITS_PER_LOGIT);
}

/** The policy's ridge (on the mean log likelihood): rare shapes stay near 0. */
export const POLICY_RIDGE = 1e-4;

function main({ values }: { values: Record<string, unknown> }): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const holdout = intOption(values, 'holdout', 10, 2, 1000);
  const teacher = typeof values.teacher === 'string' ? values.teacher : 'rapfi';
  const records = typeof values.records === 'string' ? values.records.split(',') : defaultRecords(root);
  const { train, test } = readSamples(records, holdout, (game) => policySamples(game, teacher), `games with ${teacher}'s quiet moves`);
  const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const line = (s: RankSummary): string => `first ${percent(s.first)}, in the first 12 ${percent(s.top12)}, in the first 24 ${percent(s.top24)}`;
  console.log(`hand-set hints, ring-1 candidates: held out ${line(rankSummary(test, null))}`);
  const shipped = PATTERN_VALUES.policy;
  if (shipped !== undefined) {
    // The policy the engine reads now, on the same held-out positions (a refit is judged against it).
    const current = policyWeights(shipped);
    console.log(`the file's policy: held out ${line(rankSummary(test, current))}, log loss ${policyLoss(test, current).toFixed(4)}`);
  }
  const ridge = numberOption(values, 'ridge', POLICY_RIDGE, 0, 1);
  const w = fitPolicy(train, ridge);
  const rounded = Float64Array.from(w, (v) => Math.round(v * POLICY_UNITS_PER_LOGIT) / POLICY_UNITS_PER_LOGIT);
  console.log(`policy (rounded), ring-2 candidates: held out ${line(rankSummary(test, rounded))}`);
  console.log(`policy log loss: train ${policyLoss(train, rounded).toFixed(4)}, held out ${policyLoss(test, rounded).toFixed(4)}`);
  if (values.write !== true) return;
  const target = `${root}/src/games/mnk/pattern-values.json`;
  const previous = JSON.parse(readFileSync(target, 'utf8')) as Record<string, unknown>;
  writeFileSync(target, `${JSON.stringify({ ...previous, policy: policyValues(w) }, null, 2)}\n`);
  console.log(`wrote ${target}`);
}

runCliIfMain(
  import.meta.url,
  {
    name: 'npm run gomoku-policy',
    usage: USAGE,
    options: {
      records: { type: 'string' },
      teacher: { type: 'string' },
      holdout: { type: 'string' },
      ridge: { type: 'string' },
      write: { type: 'boolean' },
    },
  },
  main,
);
