/**
 * Threat-space search: does the side to move (the attacker) force a K-line within d of its own
 * moves (2d - 1 plies)? An AND/OR search whose move sets are cut down by relevance, not guessed:
 *
 *  - A stone only matters within a horizon of d attacker moves if it lies in a window one of the
 *    sides could still turn into a win or a forcing K-1 threat in that time: a window open for
 *    that side holding at least K - d of its stones. Other cells are "far".
 *  - Defender (AND) nodes: every relevant cell, plus ONE far cell standing for all of them (a far
 *    stone changes nothing within the horizon, so all far replies have the same outcome).
 *    When the attacker has a K-1 window the only non-losing reply is to block it.
 *  - Attacker (OR) nodes: the winning cell; else the forced block of a defender K-1 window; with
 *    two moves left, the cells of its K-2 windows (only those can make two K-1 windows at once);
 *    deeper, the relevant cells (complete up to EXACT_DEPTH) or only its threat-making cells
 *    beyond (sound but possibly missing wins; 'vcf' mode allows only K-1 threats).
 *
 * A found win is therefore always a real forced win, and for d <= EXACT_DEPTH iterative deepening
 * returns the shortest one. Results are cached per (position, d) in a small table.
 */
import { EMPTY, LEVEL_FOUR, LEVEL_THREE, type MnkPosition } from './position.js';
import { moveOrderHint } from './evaluation.js';
import { writeBlockingCells } from './moves.js';
import { appendWindowEmpties, writeThreatCells } from './threat-scan.js';
import { pickBest } from '../../search/pick.js';

/** Up to this many attacker moves the search considers every relevant attacker move. */
export const EXACT_DEPTH = 3;
const MODE_FULL = 0;
const MODE_VCF = 1;
const TT_BITS = 16;
const TT_MASK = (1 << TT_BITS) - 1;
const TT_ENTRY = 4;
const NO_WIN = 127;
/** Clock polls every 128 nodes (a node may cost ~25 us), more often where it can scan many windows. */
const CHECK_MASK = 127;
const BIG_BOARD_WINDOWS = 2048;
const BIG_BOARD_CHECK_MASK = 15;
const MAX_THREAT_PLIES = 64;

export interface StopCheck {
  shouldStop(): boolean;
}

export class ThreatSearch {
  nodes = 0;
  stopped = false;
  /** Winning attacker moves by ply of the last successful search (pv[0] = root move). */
  readonly pv = new Int32Array(MAX_THREAT_PLIES);
  pvLength = 0;

  /** Node budget (cumulative since reset); hitting it stops the search like a deadline. */
  nodeLimit = Infinity;

  private pos!: MnkPosition;
  private stop: StopCheck = { shouldStop: () => false };
  private mode = MODE_FULL;
  private checkMask = CHECK_MASK;
  private stride = 0;
  private moves = new Int32Array(0);
  private order = new Int32Array(0);
  private stamp = new Int32Array(0);
  private stampValue = 0;
  /** [hashHi, hashLo ^ mode ^ generation salt, smallest d proven won (NO_WIN if none), largest d proven not won]. */
  private readonly table = new Int32Array((TT_MASK + 1) * TT_ENTRY);
  private generation = 0;
  private keySalt = 0;

  /** Prepares for searches on `pos` (buffers sized to the board; cache cleared). */
  reset(pos: MnkPosition, stop: StopCheck): void {
    this.pos = pos;
    this.stop = stop;
    this.nodes = 0;
    this.nodeLimit = Infinity;
    this.stopped = false;
    this.stride = pos.cellCount + 1;
    // A node may scan every window (relevantCells): poll the clock by work, not by node count.
    this.checkMask = pos.geometry.windowCount > BIG_BOARD_WINDOWS ? BIG_BOARD_CHECK_MASK : CHECK_MASK;
    const need = this.stride * (MAX_THREAT_PLIES + 1);
    if (this.moves.length < need) {
      this.moves = new Int32Array(need);
      this.order = new Int32Array(need);
    }
    if (this.stamp.length < pos.cellCount) this.stamp = new Int32Array(pos.cellCount);
    // A new generation invalidates every cached entry without clearing the table.
    this.generation = (this.generation + 1) | 0;
    this.keySalt = Math.imul(this.generation, 0x9e3779b1);
  }

  /**
   * Smallest d in [1, maxD] such that the side to move wins within d own moves, or 0 (none found,
   * or stopped: check `stopped`). Exact (shortest) while maxD <= EXACT_DEPTH.
   */
  findWin(maxD: number, vcf = false): number {
    this.mode = vcf ? MODE_VCF : MODE_FULL;
    const limit = Math.min(maxD, MAX_THREAT_PLIES >> 1);
    this.stopped = false;
    for (let d = 1; d <= limit; d++) {
      if (this.orWin(d, 0)) return d;
      if (this.stopped) return 0;
    }
    return 0;
  }

  /** Attacker (side to move) to play: forced K-line within d own moves? */
  private orWin(d: number, ply: number): boolean {
    const pos = this.pos;
    const a = pos.side;
    const def = 1 - a;
    if (pos.threatCount(a, LEVEL_FOUR) > 0) {
      this.record(ply, pos.emptyCellOf(pos.threatWindow(a, LEVEL_FOUR, 0)));
      return true;
    }
    if (d <= 1 || ply + 2 >= MAX_THREAT_PLIES || this.stopped) return false;
    const cached = this.probe(d);
    if (cached !== 0) return cached > 0;

    const base = ply * this.stride;
    const buf = this.moves;
    let count = writeBlockingCells(pos, def, buf, base);
    if (count >= 2) return this.store(d, false);
    if (count === 0) {
      if (d === 2 || this.mode === MODE_VCF) count = this.cellsOfSet(a, LEVEL_THREE, base);
      else if (d <= EXACT_DEPTH) count = this.relevantCells(pos.k - d, base);
      else count = this.attackerThreatCells(a, base);
    }
    this.scoreByHint(base, count);
    for (let i = 0; i < count; i++) {
      const move = pickBest(this.moves, this.order, base + i, base + count);
      pos.makeMove(move);
      this.nodes++;
      if (((this.nodes & this.checkMask) === 0 && this.stop.shouldStop()) || this.nodes >= this.nodeLimit) this.stopped = true;
      const won = !this.stopped && this.andWin(d - 1, ply + 1);
      pos.unmakeMove(move);
      if (this.stopped) return false;
      if (won) {
        this.record(ply, move);
        return this.store(d, true);
      }
    }
    return this.store(d, false);
  }

  /** Defender to play, attacker has d moves left: does every reply still lose within them? */
  private andWin(d: number, ply: number): boolean {
    const pos = this.pos;
    const def = pos.side;
    const a = 1 - def;
    if (pos.threatCount(def, LEVEL_FOUR) > 0) return false;
    const base = ply * this.stride;
    const buf = this.moves;
    const blocks = writeBlockingCells(pos, a, buf, base);
    if (blocks >= 2) return true;
    if (d <= 0 || (blocks === 0 && (d === 1 || this.mode === MODE_VCF))) return false;
    if (pos.stones === pos.cellCount) return false;
    const cached = this.probe(d);
    if (cached !== 0) return cached > 0;

    let count = blocks;
    if (count === 0) {
      count = this.relevantCells(pos.k - d, base);
      const far = this.unstampedEmptyCell();
      if (far >= 0) buf[base + count++] = far;
    }
    this.scoreByHint(base, count);
    for (let i = 0; i < count; i++) {
      const move = pickBest(this.moves, this.order, base + i, base + count);
      pos.makeMove(move);
      this.nodes++;
      if (((this.nodes & this.checkMask) === 0 && this.stop.shouldStop()) || this.nodes >= this.nodeLimit) this.stopped = true;
      const won = !this.stopped && this.orWin(d, ply + 1);
      pos.unmakeMove(move);
      if (this.stopped) return false;
      if (!won) return this.store(d, false);
    }
    return this.store(d, true);
  }

  private record(ply: number, move: number): void {
    this.pv[ply] = move;
    if (ply === 0) this.pvLength = 1;
  }

  /** Public face of relevantCells: writes into `out` from 0; the cells stay stamped. */
  zoneCells(pos: MnkPosition, threshold: number, out: Int32Array): number {
    this.pos = pos;
    const count = this.relevantCells(threshold, 0);
    out.set(this.moves.subarray(0, count));
    return count;
  }

  /** Empty cells of windows open for one side and holding at least `threshold` of its stones. */
  private relevantCells(threshold: number, base: number): number {
    const pos = this.pos;
    // Windows this full are all in the maintained threat sets: no need to scan the board.
    if (threshold >= pos.k - 2 && pos.k >= 3) return this.setCells(threshold >= pos.k - 1 ? LEVEL_FOUR : LEVEL_THREE, base);
    const g = pos.geometry;
    const counts = pos.counts;
    const stamp = this.stamp;
    const mark = ++this.stampValue;
    const buf = this.moves;
    let end = base;
    for (let w = 0, W = g.windowCount; w < W; w++) {
      const cx = counts[2 * w];
      const co = counts[2 * w + 1];
      if (!((co === 0 && cx >= threshold) || (cx === 0 && co >= threshold))) continue;
      end = appendWindowEmpties(pos, w, stamp, mark, buf, end);
    }
    return end - base;
  }

  /** Empty cells of both sides' windows at threat level <= maxLevel (LEVEL_FOUR first), deduplicated. */
  private setCells(maxLevel: number, base: number): number {
    return writeThreatCells(this.pos, maxLevel, this.stamp, ++this.stampValue, this.moves, base);
  }

  /** Empty cells of one side's windows in a threat set (deduplicated). */
  private cellsOfSet(side: number, level: number, base: number): number {
    const pos = this.pos;
    const mark = ++this.stampValue;
    let end = base;
    for (let j = 0, size = pos.threatCount(side, level); j < size; j++) {
      end = appendWindowEmpties(pos, pos.threatWindow(side, level, j), this.stamp, mark, this.moves, end);
    }
    return end - base;
  }

  /** Cells where the attacker makes a K-1 or K-2 window (threats), for deep non-exhaustive levels. */
  private attackerThreatCells(a: number, base: number): number {
    const pos = this.pos;
    const g = pos.geometry;
    const counts = pos.counts;
    const stamp = this.stamp;
    const mark = ++this.stampValue;
    const buf = this.moves;
    const threshold = Math.max(1, pos.k - 3);
    let end = base;
    for (let w = 0, W = g.windowCount; w < W; w++) {
      if (counts[2 * w + 1 - a] !== 0 || counts[2 * w + a] < threshold) continue;
      end = appendWindowEmpties(pos, w, stamp, mark, buf, end);
    }
    return end - base;
  }

  /** An empty cell outside the last stamped set, or -1. */
  private unstampedEmptyCell(): number {
    const pos = this.pos;
    const cells = pos.cells;
    const stamp = this.stamp;
    const mark = this.stampValue;
    for (let cell = 0, end = pos.cellCount; cell < end; cell++) {
      if (cells[cell] === EMPTY && stamp[cell] !== mark) return cell;
    }
    return -1;
  }

  /** Scores buf[base .. base + count) by the move-ordering hint (picked lazily by pickBest). */
  private scoreByHint(base: number, count: number): void {
    const buf = this.moves;
    const order = this.order;
    for (let i = 0; i < count; i++) order[base + i] = moveOrderHint(this.pos, buf[base + i]);
  }

  /** +1 proven win within d, -1 proven no win within d, 0 unknown. */
  private probe(d: number): number {
    const pos = this.pos;
    const lo = pos.hashLo ^ this.mode ^ this.keySalt;
    const at = ((pos.hashLo ^ this.mode) & TT_MASK) * TT_ENTRY;
    const t = this.table;
    if (t[at] !== pos.hashHi || t[at + 1] !== lo || (t[at + 2] === 0 && t[at + 3] === 0)) return 0;
    if (d >= t[at + 2]) return 1;
    if (d <= t[at + 3]) return -1;
    return 0;
  }

  private store(d: number, won: boolean): boolean {
    if (this.stopped) return won;
    const pos = this.pos;
    const lo = pos.hashLo ^ this.mode ^ this.keySalt;
    const at = ((pos.hashLo ^ this.mode) & TT_MASK) * TT_ENTRY;
    const t = this.table;
    if (t[at] !== pos.hashHi || t[at + 1] !== lo || (t[at + 2] === 0 && t[at + 3] === 0)) {
      t[at] = pos.hashHi;
      t[at + 1] = lo;
      t[at + 2] = NO_WIN;
      t[at + 3] = 0;
    }
    if (won) {
      if (d < t[at + 2]) t[at + 2] = d;
    } else if (d > t[at + 3]) {
      t[at + 3] = d;
    }
    return won;
  }
}
