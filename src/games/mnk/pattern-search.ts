/**
 * What the search reads from the K = 5 pattern board (patterns.ts): the static evaluation, the
 * move-ordering hint and the search's move list.
 *
 *  - Evaluation: the side to move's sum of cell values (pattern-tables.ts) times 5/4 (the tempo)
 *    minus the opponent's; a five cell of the mover, two of the opponent, or a winning four of the
 *    mover against no enemy four are decided.
 *  - Move list (on small boards and in the last 20 empties the window engine's, moves.ts), exactly
 *    forced where the rules force it: the mover's five; else the blocks of the
 *    opponent's five cells; else, when the opponent has a winning-four cell (an open three or a
 *    double-four point), the mover's own fours plus the cells after which the opponent has none
 *    (any other move lets the opponent make two five cells at once, with no four to answer);
 *    else the candidate cells, within two cells of a stone (which holds every four and open three
 *    of the mover: each needs a stone of its own within two cells on its line), best hinted first,
 *    cut to a few below the root
 *    (`movesTruncated` tells the search, which then does not take "every move loses" as proven).
 */
import { type SelectiveSearch, TACTICAL_HINT } from '../types.js';
import type { MnkBoardView } from './board-view.js';
import {
  C_BLOCK4,
  F_FIVE,
  F_FOUR,
  F_THREE,
  F_WIN4,
  HAS_POLICY,
  handSetHint,
  lastMoveBucket,
  POLICY_ENEMY,
  POLICY_FAR,
  POLICY_LAST_OPPONENT,
  POLICY_LAST_OWN,
  POLICY_LINE,
  POLICY_OWN,
  TEMPO_QUARTERS,
} from './pattern-tables.js';
import type { PatternBoard } from './patterns.js';
import { VcfSolver, type VcfPosition } from './vcf.js';
import { FULL_WIDTH_CELLS, FULL_WIDTH_EMPTIES, centreCell, generateSearchCandidates } from './moves.js';

export interface PatternPosition extends MnkBoardView, VcfPosition {
  readonly patterns: PatternBoard | null;
  readonly ply: number;
  /** Moves made since the position was decoded (-1 for a pass), by ply. */
  readonly played: Int32Array;
  /** Ply of the position the current search started from (moves are cut only below it). */
  readonly searchRootPly: number;
  /** Stones in the eight cells around each cell (0: a candidate two cells from every stone, which the policy ranks lower). */
  readonly nearRing1: Uint16Array;
  movesTruncated: boolean;
  /** Keeps the window counts up to date from now on (they are lazy on the pattern path; the full-width lists read them). */
  useWindows(): void;
}

/**
 * The search's selective part on this path (search.ts): reverse futility 800 a ply (about 0.3 of the
 * evaluation's logistic scale, 2,712: tools/gomoku-fit.ts) to depth 6, late quiet root moves reduced from the
 * fifth (two plies from the thirteenth), and below the root Rapfi's ln(depth) x ln(move number) reductions of every
 * move after the first, a ply less for a tactical move and at a PV node; from depth 5 the root searches inside 1000
 * points either side of the last iteration's score (about the median change from one iteration to the next on the
 * bench's middle games). Measured against Rapfi: docs/gomoku-strength.md, eighth, thirty-fourth and forty-first rounds.
 */
export const PATTERN_SELECTIVE_SEARCH: SelectiveSearch = {
  futilityMargin: 800,
  futilityDepth: 6,
  rootReductionFrom: 4,
  rootDoubleReductionFrom: 12,
  logReductionRelief: 1,
  aspirationDelta: 1000,
};
let selectiveSearchOn = true;

/** The selective search of this path, or null after useSelectiveSearch(false) (the bench's and tests' comparison). */
export function patternSelectiveSearch(): SelectiveSearch | null {
  return selectiveSearchOn ? PATTERN_SELECTIVE_SEARCH : null;
}

export function useSelectiveSearch(on: boolean): void {
  selectiveSearchOn = on;
}

const DECIDED_EVAL = 300_000;
const WIN4_DISCOUNT = 50_000;
const VCF_DISCOUNT = 60_000;
const HEURISTIC_CAP = 200_000;
/**
 * The leaf VCF: off. A 48-node chain search at every leaf where the mover has a four cut the search
 * to a fifth of its nodes and lost to the window engine (30% in 20 games at 300 ms, 52.5% in 40 at
 * 100 ms, against 62.5-70% without it); the root VCF and the forced replies keep the tactics.
 */
const LEAF_VCF_NODES = 0;
const LEAF_VCF_DEPTH = 8;
const leafVcf = new VcfSolver(false);

export function evaluatePatterns(pos: PatternPosition): number {
  const p = pos.patterns!;
  const s = pos.side;
  const o = 1 - s;
  if (p.count(s, F_FIVE) > 0) return DECIDED_EVAL;
  const enemyFives = p.count(o, F_FIVE);
  if (enemyFives >= 2) return -DECIDED_EVAL;
  if (enemyFives === 0) {
    if (p.count(s, F_WIN4) > 0) return DECIDED_EVAL - WIN4_DISCOUNT;
    if (LEAF_VCF_NODES > 0 && p.count(s, F_FOUR) > 0 && leafVcf.findWin(pos, LEAF_VCF_DEPTH, LEAF_VCF_NODES) > 0) return DECIDED_EVAL - VCF_DISCOUNT;
  }
  const value = ((p.valueSum[s] * TEMPO_QUARTERS) >> 2) - p.valueSum[o];
  return value > HEURISTIC_CAP ? HEURISTIC_CAP : value < -HEURISTIC_CAP ? -HEURISTIC_CAP : value;
}

const WIN_HINT = TACTICAL_HINT + 400_000;
const BLOCK_HINT = TACTICAL_HINT + 300_000;
const WIN4_HINT = TACTICAL_HINT + 200_000;
const FOUR_HINT = TACTICAL_HINT + 100_000;
const STOP_THREE_HINT = TACTICAL_HINT + 50_000;
const THREE_HINT = TACTICAL_HINT;
const QUIET_CAP = 49_999;

/**
 * Ordering hint of a move for the side to move: fives, blocks, fours, open-three points, then the policy
 * (pattern-values.json, fitted to Rapfi's moves by tools/gomoku-policy.ts; without one, own value + 3/4 of the enemy's).
 */
export function patternHint(pos: PatternPosition, move: number): number {
  const ply = pos.ply;
  const opponent = ply >= 1 ? pos.played[ply - 1] : -1;
  const own = ply >= 2 ? pos.played[ply - 2] : -1;
  const rows = pos.geometry.rowOf;
  const cols = pos.geometry.colOf;
  return hintAt(pos, move, opponent >= 0 ? rows[opponent] : -1, opponent >= 0 ? cols[opponent] : 0, own >= 0 ? rows[own] : -1, own >= 0 ? cols[own] : 0);
}

/** Per Chebyshev distance from the opponent's / the mover's last move (boards to 100 cells a side): the policy's term. */
export const LAST_OPPONENT_BY_DISTANCE = Int32Array.from({ length: 128 }, (_, d) => (d === 0 ? 0 : POLICY_LAST_OPPONENT[lastMoveBucket(d)]));
export const LAST_OWN_BY_DISTANCE = Int32Array.from({ length: 128 }, (_, d) => (d === 0 ? 0 : POLICY_LAST_OWN[lastMoveBucket(d)]));

/**
 * patternHint with the node's last moves read once (the move lists ask for every candidate of a node): their rows and
 * columns, a row of -1 where the search did not make that move.
 */
function hintAt(pos: PatternPosition, move: number, opponentRow: number, opponentCol: number, ownRow: number, ownCol: number): number {
  const p = pos.patterns!;
  const s = pos.side;
  const o = 1 - s;
  const own = p.flags(move, s);
  const enemy = p.flags(move, o);
  if ((own & F_FIVE) !== 0) return WIN_HINT;
  if ((enemy & F_FIVE) !== 0) return BLOCK_HINT;
  let quiet: number;
  if (HAS_POLICY) {
    const row = pos.geometry.rowOf[move];
    const col = pos.geometry.colOf[move];
    quiet =
      POLICY_OWN[p.keys[move * 2 + s]] +
      POLICY_ENEMY[p.keys[move * 2 + o]] +
      (pos.nearRing1[move] === 0 ? POLICY_FAR : 0) +
      (opponentRow >= 0 ? LAST_OPPONENT_BY_DISTANCE[Math.max(Math.abs(opponentRow - row), Math.abs(opponentCol - col))] : 0) +
      (ownRow >= 0 ? LAST_OWN_BY_DISTANCE[Math.max(Math.abs(ownRow - row), Math.abs(ownCol - col))] : 0) +
      lineTerms(p.codes, move, s);
  } else {
    quiet = handSetHint(p.keys[move * 2 + s], p.keys[move * 2 + o]);
  }
  if (quiet < 0) quiet = 0;
  if (quiet > QUIET_CAP) quiet = QUIET_CAP;
  if ((own & F_WIN4) !== 0) return WIN4_HINT + quiet;
  if ((own & F_FOUR) !== 0) return FOUR_HINT + quiet;
  if ((enemy & F_WIN4) !== 0) return STOP_THREE_HINT + quiet;
  if ((own & F_THREE) !== 0) return THREE_HINT + quiet;
  return quiet;
}

/** The policy's terms for the lines through the move (policyLine inlined, for white the table's second half). */
function lineTerms(codes: Int32Array, move: number, s: number): number {
  const at = move * 4;
  const side = s << 16;
  return (
    POLICY_LINE[side | ((codes[at] >> 2) & 0xffff)] +
    POLICY_LINE[side | ((codes[at + 1] >> 2) & 0xffff)] +
    POLICY_LINE[side | ((codes[at + 2] >> 2) & 0xffff)] +
    POLICY_LINE[side | ((codes[at + 3] >> 2) & 0xffff)]
  );
}

/** Moves kept one ply below the root and deeper (tactical moves are always kept). */
const MOVES_AT_PLY_1 = 24;
const MOVES_DEEPER = 12;

let hintScratch = new Int32Array(0);
let cellScratch = new Int32Array(0);
let stamp = new Int32Array(0);
let stampMark = 0;

export function generatePatternMoves(pos: PatternPosition, buf: Int32Array, offset: number): number {
  pos.movesTruncated = false;
  const solverMoves = pos.writeRootMoves(buf, offset);
  if (solverMoves > 0) return solverMoves;
  // Small boards and the last empties: the window engine's lists (every live cell, uncut), which let
  // the search prove results there.
  if (pos.cellCount - pos.stones <= FULL_WIDTH_EMPTIES || pos.cellCount <= FULL_WIDTH_CELLS) {
    pos.useWindows();
    return generateSearchCandidates(pos, buf, offset);
  }
  const p = pos.patterns!;
  const s = pos.side;
  const o = 1 - s;
  if (p.count(s, F_FIVE) > 0) {
    buf[offset] = p.item(s, F_FIVE, 0);
    return 1;
  }
  const enemyFives = p.count(o, F_FIVE);
  if (enemyFives > 0) {
    for (let i = 0; i < enemyFives; i++) buf[offset + i] = p.item(o, F_FIVE, i);
    return enemyFives;
  }
  if (pos.stones === 0) {
    buf[offset] = centreCell(pos);
    return 1;
  }
  if (hintScratch.length < pos.cellCount) {
    hintScratch = new Int32Array(pos.cellCount);
    cellScratch = new Int32Array(pos.cellCount * 2);
    stamp = new Int32Array(pos.cellCount);
  }
  if (p.count(o, F_WIN4) > 0) return defenceMoves(pos, p, buf, offset);
  const count = pos.candidateCount;
  if (count === 0) return pos.generateMoves(buf, offset);
  const plyFromRoot = pos.ply - pos.searchRootPly;
  const limit = plyFromRoot <= 0 ? count : plyFromRoot === 1 ? MOVES_AT_PLY_1 : MOVES_DEEPER;
  const candidates = pos.candidates;
  if (count <= limit) {
    for (let i = 0; i < count; i++) buf[offset + i] = candidates[i];
    return count;
  }
  // Keep every tactical move and the best quiet ones up to the limit.
  const hints = hintScratch;
  let kept = 0;
  let quiet = 0;
  const ply = pos.ply;
  const opponent = ply >= 1 ? pos.played[ply - 1] : -1;
  const own = ply >= 2 ? pos.played[ply - 2] : -1;
  const rows = pos.geometry.rowOf;
  const cols = pos.geometry.colOf;
  const opponentRow = opponent >= 0 ? rows[opponent] : -1;
  const opponentCol = opponent >= 0 ? cols[opponent] : 0;
  const ownRow = own >= 0 ? rows[own] : -1;
  const ownCol = own >= 0 ? cols[own] : 0;
  for (let i = 0; i < count; i++) {
    const cell = candidates[i];
    const hint = hintAt(pos, cell, opponentRow, opponentCol, ownRow, ownCol);
    if (hint >= TACTICAL_HINT) buf[offset + kept++] = cell;
    else {
      cellScratch[quiet] = cell;
      hints[quiet++] = hint;
    }
  }
  let i = 0;
  for (; i < quiet && kept < limit; i++) {
    let best = i;
    for (let j = i + 1; j < quiet; j++) if (hints[j] > hints[best]) best = j;
    const cell = cellScratch[best];
    cellScratch[best] = cellScratch[i];
    hints[best] = hints[i];
    buf[offset + kept++] = cell;
  }
  pos.movesTruncated = i < quiet;
  return kept;
}

/**
 * The opponent has a winning-four cell and no five: the mover's fours, plus the cells on the
 * threat's lines (within four cells of a winning-four cell) after which the opponent has no
 * winning-four cell left, each checked by playing it. When nothing defends, the winning-four cells
 * themselves (the game is lost short of a VCF, which the fours already cover).
 */
function defenceMoves(pos: PatternPosition, p: PatternBoard, buf: Int32Array, offset: number): number {
  const s = pos.side;
  const o = 1 - s;
  const mark = ++stampMark;
  let count = 0;
  for (let i = 0, fours = p.count(s, F_FOUR); i < fours; i++) {
    const cell = p.item(s, F_FOUR, i);
    stamp[cell] = mark;
    buf[offset + count++] = cell;
  }
  let tried = 0;
  for (let i = 0, threats = p.count(o, F_WIN4); i < threats; i++) {
    const w = p.item(o, F_WIN4, i);
    if (tried + 4 * 8 + 1 > cellScratch.length) break;
    cellScratch[tried++] = w;
    for (let d = 0; d < 4; d++) if (p.classAt(w, d, o) >= C_BLOCK4) tried = p.lineCells(w, d, 4, cellScratch, tried);
  }
  let defended = 0;
  for (let i = 0; i < tried; i++) {
    const cell = cellScratch[i];
    if (stamp[cell] === mark) continue;
    stamp[cell] = mark;
    if (p.removesAll(cell, s, F_WIN4)) {
      buf[offset + count++] = cell;
      defended++;
    }
  }
  if (defended === 0) {
    for (let i = 0, threats = p.count(o, F_WIN4); i < threats; i++) {
      const w = p.item(o, F_WIN4, i);
      if (!isIn(buf, offset, count, w)) buf[offset + count++] = w;
    }
  }
  return count;
}

function isIn(buf: Int32Array, offset: number, count: number, cell: number): boolean {
  for (let i = 0; i < count; i++) if (buf[offset + i] === cell) return true;
  return false;
}
