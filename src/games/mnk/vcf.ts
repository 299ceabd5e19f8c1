/**
 * VCF (victory by continuous fours) on the K = 5 pattern board: does the side to move (the attacker)
 * win by a chain of fours, each forcing the one block that stops it?
 *
 * Attacker node: a five cell wins; two defender five cells lose; one defender five cell must be
 * blocked, which continues the chain only if the block is itself a four; otherwise every cell where
 * the attacker makes a four (winning fours first). After the four, two attacker five cells win (the
 * defender has none: checked before the four), one is the defender's only reply. Every step follows
 * from the rules, so a win found is a proven win, under freestyle and exactly five alike (the
 * pattern tables know the rule). Failures are cached per position and depth; the node budget and
 * the stop check make every call bounded.
 */
import { F_FIVE, F_FOUR, F_WIN4 } from './pattern-tables.js';
import type { PatternBoard } from './patterns.js';

export interface VcfPosition {
  readonly side: number;
  readonly hashLo: number;
  readonly hashHi: number;
  readonly cellCount: number;
  readonly patterns: PatternBoard | null;
  makeMove(move: number): void;
  unmakeMove(move: number): void;
}

export interface VcfStop {
  shouldStop(): boolean;
}

const MAX_VCF_DEPTH = 40;
const TT_BITS = 16;
const TT_MASK = (1 << TT_BITS) - 1;
const CHECK_MASK = 63;

export class VcfSolver {
  nodes = 0;
  stopped = false;
  /** Attacker move, forced block, attacker move, ... of the last win found. */
  readonly pv = new Int32Array(2 * MAX_VCF_DEPTH + 2);
  pvLength = 0;

  private pos!: VcfPosition;
  private patterns!: PatternBoard;
  private stop: VcfStop | undefined;
  private nodeLimit = 0;
  private stride = 0;
  private moves = new Int32Array(0);
  /** [hashLo, hashHi, deepest depth proven to fail] per slot; salted per rule so tables never mix. */
  private readonly table = new Int32Array((TT_MASK + 1) * 3);
  private salt = 0;
  /** Without the cache a call depends on the position alone (the leaf VCF: evaluations stay pure). */
  private readonly cached: boolean;

  constructor(cached = true) {
    this.cached = cached;
  }

  /**
   * Smallest d <= maxDepth (attacker moves) of a VCF win for the side to move, or 0 (none within the
   * budget; `stopped` says whether the budget ended it). Iterative deepening over d, so the line
   * found is a shortest VCF.
   */
  findWin(pos: VcfPosition, maxDepth: number, nodeLimit: number, stop?: VcfStop): number {
    const patterns = pos.patterns;
    if (patterns === null) return 0;
    this.pos = pos;
    this.patterns = patterns;
    this.stop = stop;
    this.nodes = 0;
    this.nodeLimit = nodeLimit;
    this.stopped = false;
    this.pvLength = 0;
    this.salt = patterns.exact ? 0x5bd1e995 : 0;
    this.stride = pos.cellCount;
    const depthLimit = Math.min(maxDepth, MAX_VCF_DEPTH);
    const need = this.stride * (depthLimit + 1);
    if (this.moves.length < need) this.moves = new Int32Array(need);
    const a = pos.side;
    if (patterns.count(a, F_FIVE) > 0) {
      this.pv[0] = patterns.item(a, F_FIVE, 0);
      this.pvLength = 1;
      return 1;
    }
    if (patterns.count(a, F_FOUR) === 0) return 0;
    for (let d = 2; d <= depthLimit; d++) {
      if (this.attack(d, 0)) return d;
      if (this.stopped) return 0;
    }
    return 0;
  }

  /** Attacker to move with d moves left (counting the final five). */
  private attack(d: number, ply: number): boolean {
    const pos = this.pos;
    const patterns = this.patterns;
    const a = pos.side;
    const o = 1 - a;
    if (patterns.count(a, F_FIVE) > 0) {
      this.pv[ply] = patterns.item(a, F_FIVE, 0);
      this.pvLength = ply + 1;
      return true;
    }
    if (d <= 1) return false;
    const enemyFives = patterns.count(o, F_FIVE);
    if (enemyFives >= 2) return false;
    const slot = ((pos.hashLo ^ this.salt) & TT_MASK) * 3;
    const table = this.table;
    if (this.cached && table[slot] === (pos.hashLo ^ this.salt) && table[slot + 1] === pos.hashHi && table[slot + 2] >= d) return false;

    const base = Math.min(ply >> 1, MAX_VCF_DEPTH) * this.stride;
    const moves = this.moves;
    let count = 0;
    if (enemyFives === 1) {
      const block = patterns.item(o, F_FIVE, 0);
      if ((patterns.flags(block, a) & F_FOUR) === 0) return this.fail(slot, d);
      moves[base] = block;
      count = 1;
    } else {
      const fours = patterns.count(a, F_FOUR);
      let wins = 0;
      for (let i = 0; i < fours; i++) {
        const cell = patterns.item(a, F_FOUR, i);
        // Winning fours (open or double) first: they end the chain at once.
        if ((patterns.flags(cell, a) & F_WIN4) !== 0) {
          moves[base + count] = moves[base + wins];
          moves[base + wins++] = cell;
        } else moves[base + count] = cell;
        count++;
      }
    }
    for (let i = 0; i < count; i++) {
      const move = moves[base + i];
      pos.makeMove(move);
      this.nodes++;
      if (this.nodes >= this.nodeLimit || ((this.nodes & CHECK_MASK) === 0 && this.stop !== undefined && this.stop.shouldStop())) {
        this.stopped = true;
      }
      let won = false;
      const fives = patterns.count(a, F_FIVE);
      let block = -1;
      if (fives >= 2) {
        // The defender blocks one five cell, the attacker takes the other.
        won = true;
        block = patterns.item(a, F_FIVE, 0);
        this.pv[ply + 2] = patterns.item(a, F_FIVE, 1);
        this.pvLength = ply + 3;
      } else if (fives === 1 && !this.stopped) {
        block = patterns.item(a, F_FIVE, 0);
        pos.makeMove(block);
        won = this.attack(d - 1, ply + 2);
        pos.unmakeMove(block);
      }
      pos.unmakeMove(move);
      if (won) {
        this.pv[ply] = move;
        if (block >= 0) this.pv[ply + 1] = block;
        return true;
      }
      if (this.stopped) return false;
    }
    return this.fail(slot, d);
  }

  private fail(slot: number, d: number): boolean {
    if (this.stopped || !this.cached) return false;
    const table = this.table;
    const lo = this.pos.hashLo ^ this.salt;
    if (table[slot] !== lo || table[slot + 1] !== this.pos.hashHi || table[slot + 2] < d) {
      table[slot] = lo;
      table[slot + 1] = this.pos.hashHi;
      table[slot + 2] = d;
    }
    return false;
  }
}
