/**
 * The default ('strong') evaluation, in hundredths of a black pawn from White's point of view,
 * returned for the side to move.
 *
 * Terms:
 * - material: white pawns are worth about two black pawns;
 * - king escape: open lines to an escape square (one is a threat Black must answer, two cannot
 *   both be blocked), squares the king reaches in one move that open one or two lines, king mobility;
 * - king danger: black pawns around the king relative to what the capture needs on its square
 *   (4 on the throne, 3 next to it, 2 elsewhere with camps as anvils), and an immediate capture;
 * - Black's formation: pawns guarding the escape segments (rows/columns 2, 3, 7, 8 towards each
 *   edge), blocking pawns on the king's lines, and a piece-square table favouring the diagonal
 *   "rhombus" squares that shut the corners;
 * - white pawns Black can capture next move, black pawns White can, loose black pawns (no black
 *   neighbour on a line), black pawns still on their camps, the king still on its throne;
 * - weights of the king terms grow as Black's material shrinks (phase).
 */
import {
  BLACK,
  CAMP,
  COL,
  COL_WALL,
  NEIGHBOUR,
  ROW,
  ROW_WALL,
  SIDE_WHITE,
  SIZE,
  SQUARES,
  THRONE_SQUARE,
  THRONE_ZONE,
  KING,
  WHITE,
} from './board.js';
import { blackCanCaptureKing, capturableBlackPawns, capturableWhitePawns, kingDanger } from './features.js';
import { BIT_COUNT_4, openLineMask } from './lines.js';
import { countPieceMoves, generatePieceMoves } from './movegen.js';
import { ThreatQuiescence, WON_NOW, WON_SOON } from './threats.js';
import type { TablutEvaluator, TablutPosition } from './position.js';
import { DEFAULT_WEIGHTS, type EvalWeights } from './weights.js';

export { DEFAULT_WEIGHTS, type EvalWeights };

/**
 * The 16 escape segments: half-rows of rows 2, 3, 7, 8 and half-columns of columns b, c, g, h
 * between the edge and the middle. A black pawn anywhere on a segment shuts that way out.
 * SEGMENTS_OF[s]: bit i set when square s lies on segment i (a square lies on at most two).
 */
const SEGMENTS_OF = new Uint16Array(SQUARES);
{
  const lines = [1, 2, 6, 7];
  let i = 0;
  for (const line of lines) {
    for (const half of [0b000001111, 0b111100000]) {
      for (let k = 0; k < SIZE; k++) {
        if ((half & (1 << k)) === 0) continue;
        SEGMENTS_OF[line * SIZE + k] |= 1 << i; // the half-row of row `line`
        SEGMENTS_OF[k * SIZE + line] |= 1 << (i + 1); // the half-column of column `line`
      }
      i += 2;
    }
  }
}

/**
 * Black piece-square values (x blackSquare weight): the rhombus squares b3 c2 g2 h3 b7 c8 g8 h7
 * shut the corners; other squares on the escape rows/columns help; the middle is neutral.
 */
const BLACK_SQUARE_TABLE = new Int8Array(SQUARES);
{
  const rows = [
    [0, 1, 2, 0, 0, 0, 2, 1, 0],
    [1, 2, 4, 1, 0, 1, 4, 2, 1],
    [2, 4, 2, 1, 0, 1, 2, 4, 2],
    [0, 1, 1, 0, 0, 0, 1, 1, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 1, 1, 0, 0, 0, 1, 1, 0],
    [2, 4, 2, 1, 0, 1, 2, 4, 2],
    [1, 2, 4, 1, 0, 1, 4, 2, 1],
    [0, 1, 2, 0, 0, 0, 2, 1, 0],
  ];
  for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) BLACK_SQUARE_TABLE[r * SIZE + c] = rows[r][c];
}

/** King lines to the edge whose only obstacle is one white pawn. */
function semiOpenLines(pos: TablutPosition): number {
  const king = pos.kingSquare;
  const r = ROW[king];
  const c = COL[king];
  let rowWhite = 0;
  let colWhite = 0;
  for (let i = 0; i < pos.whiteCount; i++) {
    const s = pos.whitePawns[i];
    if (ROW[s] === r) rowWhite |= 1 << COL[s];
    if (COL[s] === c) colWhite |= 1 << ROW[s];
  }
  if ((rowWhite | colWhite) === 0) return 0;
  const rowOthers = (pos.rowOccupied[r] | ROW_WALL[r]) & ~rowWhite;
  const colOthers = (pos.colOccupied[c] | COL_WALL[c]) & ~colWhite;
  const up = (1 << r) - 1;
  const down = FULL_LINE & ~((2 << r) - 1);
  const left = (1 << c) - 1;
  const right = FULL_LINE & ~((2 << c) - 1);
  let count = 0;
  if ((colOthers & up) === 0 && BIT_COUNT_9[colWhite & up] === 1) count++;
  if ((colOthers & down) === 0 && BIT_COUNT_9[colWhite & down] === 1) count++;
  if ((rowOthers & left) === 0 && BIT_COUNT_9[rowWhite & left] === 1) count++;
  if ((rowOthers & right) === 0 && BIT_COUNT_9[rowWhite & right] === 1) count++;
  return count;
}

/** A piece on s has a line whose two neighbours are on the board and neither is a friend. */
function looseAxis(board: Uint8Array, s: number, friend: number, friend2: number): boolean {
  for (let d = 0; d < 4; d += 2) {
    const a = NEIGHBOUR[s * 4 + d];
    const b = NEIGHBOUR[s * 4 + d + 1];
    if (a < 0 || b < 0) continue;
    const x = board[a];
    const y = board[b];
    if (x !== friend && x !== friend2 && y !== friend && y !== friend2) return true;
  }
  return false;
}

/** A white pawn or the king next to s (a pawn of a block). */
function hasWhiteNeighbour(board: Uint8Array, s: number): boolean {
  for (let d = 0; d < 4; d++) {
    const n = NEIGHBOUR[s * 4 + d];
    if (n >= 0 && (board[n] === WHITE || board[n] === KING)) return true;
  }
  return false;
}

const FULL_LINE = (1 << SIZE) - 1;
const BIT_COUNT_9 = new Uint8Array(1 << SIZE);
for (let m = 1; m < 1 << SIZE; m++) BIT_COUNT_9[m] = BIT_COUNT_9[m >> 1] + (m & 1);

/**
 * Static values already computed, by position hash: searches revisit leaves (re-searches,
 * transpositions, the threat quiescence), and the static value is a pure function of the board
 * and the side to move. One table per weight set, shared by every evaluator of a worker.
 */
const CACHE_BITS = 16;
/** Slot layout: [hashLo, hashHi, value, filled (a zero key would otherwise match an empty slot)]. */
const CACHE_SLOT_INTS = 4;
class StaticCache {
  readonly slots = new Int32Array((1 << CACHE_BITS) * CACHE_SLOT_INTS);
}
const CACHE_MASK = (1 << CACHE_BITS) - 1;
const caches = new WeakMap<EvalWeights, StaticCache>();

export class DefaultEvaluator implements TablutEvaluator {
  private readonly w: EvalWeights;
  private readonly cache: StaticCache;

  /** Threat quiescence used when the engine plays Black / White (rootSide), or null: static only. */
  private readonly quiescenceAsBlack: ThreatQuiescence | null;
  private readonly quiescenceAsWhite: ThreatQuiescence | null;
  private readonly doubleSquares = new Int8Array(16);
  /** The king's moves, at most 16 (two full half-lines). */
  private readonly kingMoves = new Int32Array(16);

  constructor(weights: EvalWeights = DEFAULT_WEIGHTS) {
    this.w = weights;
    let cache = caches.get(weights);
    if (cache === undefined) {
      cache = new StaticCache();
      caches.set(weights, cache);
    }
    this.cache = cache;
    const staticWhite = (pos: TablutPosition): number => this.whiteScore(pos);
    const quiescence = (threats: number): ThreatQuiescence | null =>
      threats > 0 || weights.parryKingThreats > 0
        ? new ThreatQuiescence(staticWhite, threats, undefined, weights.parryKingThreats > 0)
        : null;
    this.quiescenceAsBlack = quiescence(weights.threatMoves);
    this.quiescenceAsWhite = quiescence(weights.threatMovesAsWhite);
  }

  evaluate(pos: TablutPosition, alpha = -Infinity, beta = Infinity): number {
    const quiescence = pos.rootSide === SIDE_WHITE ? this.quiescenceAsWhite : this.quiescenceAsBlack;
    if (quiescence === null) {
      const white = this.whiteScore(pos);
      return pos.side === SIDE_WHITE ? white : -white;
    }
    // The window turned to White's point of view.
    if (pos.side === SIDE_WHITE) return quiescence.evaluate(pos, alpha, beta);
    return -quiescence.evaluate(pos, -beta, -alpha);
  }

  /** White to move steps into a double threat that Black cannot answer by capturing the king. */
  private safeDouble(pos: TablutPosition, count: number): boolean {
    const king = pos.kingSquare;
    for (let i = 0; i < count; i++) {
      const move = king * SQUARES + this.doubleSquares[i];
      pos.makeMove(move);
      const safe = !blackCanCaptureKing(pos);
      pos.unmakeMove(move);
      if (safe) return true;
    }
    return false;
  }

  /** Score from White's point of view. */
  whiteScore(pos: TablutPosition): number {
    const slots = this.cache.slots;
    const slot = (pos.hashLo & CACHE_MASK) * CACHE_SLOT_INTS;
    if (slots[slot + 3] === 1 && slots[slot] === pos.hashLo && slots[slot + 1] === pos.hashHi) return slots[slot + 2];
    const value = this.computeWhiteScore(pos);
    slots[slot] = pos.hashLo;
    slots[slot + 1] = pos.hashHi;
    slots[slot + 2] = value;
    slots[slot + 3] = 1;
    return value;
  }

  private computeWhiteScore(pos: TablutPosition): number {
    const w = this.w;
    const board = pos.board;
    const king = pos.kingSquare;
    const whiteToMove = pos.side === SIDE_WHITE;

    const lines = openLineMask(pos, king, -1);
    const lineCount = BIT_COUNT_4[lines];
    if (lineCount > 0 && whiteToMove) return WON_NOW;
    const blackCanTakeKing = blackCanCaptureKing(pos);
    if (blackCanTakeKing && !whiteToMove) return -WON_NOW;
    if (lineCount >= 2) return WON_SOON;

    // Phase: king terms weigh more as Black's pawns disappear (16ths).
    const phase = 16 + ((16 - pos.blackCount) * w.phaseGrowth) / 16;

    let score = w.whitePawn * pos.whiteCount - w.blackPawn * pos.blackCount;
    let kingTerms = 0;
    if (lineCount === 1) kingTerms += w.openLineThreat;

    // King moves: mobility and the lines each destination would open.
    let singles = 0;
    let doubles = 0;
    const kingMoves = this.kingMoves;
    const mobility = generatePieceMoves(board, king, kingMoves, 0);
    for (let i = 0; i < mobility; i++) {
      const t = kingMoves[i] % SQUARES;
      const n = BIT_COUNT_4[openLineMask(pos, t, king)];
      if (n >= 2) this.doubleSquares[doubles++] = t;
      else if (n === 1) singles++;
    }
    kingTerms += w.kingMobility * mobility + w.reachSingle * singles + w.reachDouble * doubles;
    if (doubles > 0 && whiteToMove) {
      if (this.safeDouble(pos, doubles)) return WON_SOON;
      kingTerms += w.doubleThreatAvailable;
    }

    // King danger.
    if (THRONE_ZONE[king] === 0) {
      for (let d = 0; d < 4; d++) {
        const n = NEIGHBOUR[king * 4 + d];
        if (n >= 0 && CAMP[n] === 1) kingTerms -= w.kingNearCamp;
      }
    }
    if (w.kingPressure !== 0) kingTerms -= (w.kingPressure * kingDanger(pos)) >> 2;
    if (blackCanTakeKing) kingTerms -= w.kingCaptureThreat;
    let guards = 0;
    for (let d = 0; d < 4; d++) {
      const n = NEIGHBOUR[king * 4 + d];
      if (n >= 0 && board[n] === WHITE) guards++;
    }
    kingTerms += w.kingGuard * guards;
    kingTerms += w.semiOpenLine * semiOpenLines(pos);
    score += (kingTerms * phase) / 16;

    // Black formation.
    let squareSum = 0;
    const kr = ROW[king];
    const kc = COL[king];
    let blockers = 0;
    let crowd = 0;
    let inCamp = 0;
    let blackLoose = 0;
    let segments = 0;
    for (let i = 0; i < pos.blackCount; i++) {
      const s = pos.blackPawns[i];
      inCamp += CAMP[s];
      if (looseAxis(board, s, BLACK, BLACK)) blackLoose++;
      segments |= SEGMENTS_OF[s];
      squareSum += BLACK_SQUARE_TABLE[s];
      const r = ROW[s];
      const c = COL[s];
      if (r === kr || c === kc) blockers++;
      const dr = r > kr ? r - kr : kr - r;
      const dc = c > kc ? c - kc : kc - c;
      if (dr <= 2 && dc <= 2) crowd++;
    }
    const guarded = BIT_COUNT_9[segments & FULL_LINE] + BIT_COUNT_9[segments >> SIZE];
    score -= w.segmentGuard * guarded + w.lineBlocker * blockers + w.blackSquare * squareSum + w.kingCrowd * crowd;
    let whiteLoose = 0;
    if (w.whiteLoose !== 0) {
      for (let i = 0; i < pos.whiteCount; i++) if (looseAxis(board, pos.whitePawns[i], WHITE, KING)) whiteLoose++;
    }
    score += w.blackLoose * blackLoose - w.whiteLoose * whiteLoose - w.blackInCamp * inCamp;
    if (king === THRONE_SQUARE) score += w.kingOnThrone;
    if (THRONE_ZONE[king] === 0 && pos.blackCount > 8) score -= (w.kingExposed * (pos.blackCount - 8)) >> 4;

    if (w.hangingWhite !== 0) {
      const hangingWhite = capturableWhitePawns(pos);
      score -= hangingWhite * (whiteToMove ? w.hangingWhite >> 1 : w.hangingWhite);
    }
    const hangingBlack = capturableBlackPawns(pos);
    score += hangingBlack * (whiteToMove ? w.hangingBlack : w.hangingBlack >> 1);

    // Black well ahead: each move taken away from White's free pawns (no white piece beside them) is
    // progress. Pawns of a block are left out: capturing one frees the others, which must not cost Black.
    if (w.squeezeMobility !== 0 && score <= -w.squeezeFrom) {
      let mobility = 0;
      for (let i = 0; i < pos.whiteCount; i++) {
        const s = pos.whitePawns[i];
        if (!hasWhiteNeighbour(board, s)) mobility += countPieceMoves(board, s);
      }
      if (mobility < w.squeezeCap) score -= w.squeezeMobility * (w.squeezeCap - mobility);
    }
    return score | 0;
  }
}
