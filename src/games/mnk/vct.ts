/**
 * VCT (victory by continuous threats: fours and threes) on the K = 5 pattern board: does the side to
 * move (the attacker) win by a chain of moves each of which threatens to win, whatever the defender
 * answers? A superset of the VCF (vcf.ts): a three is a move after which the attacker has a winning-
 * four cell (F_WIN4: an open four or a double four next), so it wins in two more moves unless answered.
 *
 * Attacker node (d own moves left, counting the final five): a five cell wins; two defender five
 * cells lose; with no defender five, a winning-four cell wins in two. Else the moves are the forced
 * block of a defender five cell, or every four (and, with three or more moves left, every open-three
 * cell); a move counts only if it leaves a five cell (the block is then forced) or a winning-four cell.
 *
 * Defender node, after a three (the attacker has a winning-four cell w and no five cell; the defender
 * has no five cell): a reply leaving the defender no five cell and the attacker a winning-four cell
 * loses in two, so only these replies are searched: the defender's fours, and the cells on w's four
 * and five lines (within four cells of w, and w itself) after which the attacker has no winning-four
 * cell. Any other cell leaves w's lines, hence w, as they were. So every win found is a proven win,
 * under freestyle and exactly five alike (the tables know the rule); iterative deepening makes its
 * length the shortest within these move sets (an upper bound on the shortest win).
 *
 * Hot code: integer moves, one move buffer per ply, make/unmake, a typed-array table of proven
 * results (position-keyed, so kept from call to call), a node budget and a stop check. On a board with the
 * search's WebAssembly kernel the same search runs there (assembly/vct.ts): the table moves into that board's
 * memory, so the results, node counts and table stay those of this code.
 */
import { C_BLOCK4, F_FIVE, F_FOUR, F_THREE, F_WIN4 } from './pattern-tables.js';
import type { PatternBoard } from './patterns.js';
import type { VcfPosition, VcfStop } from './vcf.js';
import { pickBest } from '../../search/pick.js';

const MAX_VCT_DEPTH = 20;
const MAX_PLIES = 2 * MAX_VCT_DEPTH + 2;
const TT_BITS = 17;
const TT_MASK = (1 << TT_BITS) - 1;
const TT_ENTRY = 4;
/** Int32 words of the table of proven results (assembly/vct.ts lays out the same). */
export const VCT_TABLE_INTS = (TT_MASK + 1) * TT_ENTRY;
const NO_WIN = 127;
const CHECK_MASK = 63;
/** A defender's answers to a three lie within this many cells of the winning-four cell, on its lines. */
const LINE_REACH = 4;

/** The VCT in a board's WebAssembly kernel (search-kernel.ts): the same search on that board's memory. */
export interface VctKernel {
  /** The kernel's table of proven results (this module's layout), a view of its memory. */
  readonly vctTable: Int32Array;
  /** The solver whose table the kernel's holds now (null: none yet). */
  vctOwner: VctSolver | null;
  /** Of the last findVct: nodes, whether the budget or the stop check ended it, the winning move (-1: none). */
  readonly vctNodes: number;
  readonly vctStopped: boolean;
  readonly vctMove: number;
  /** findWin() of the board's position as it stands (`exact`: the board's rule, which salts the table). */
  findVct(exact: boolean, maxDepth: number, nodeLimit: number, stop: VcfStop | undefined): number;
}

/** A position whose board may carry the VCT kernel. */
export interface VctPosition extends VcfPosition {
  vctKernel?(): VctKernel | null;
}

export class VctSolver {
  nodes = 0;
  stopped = false;
  /** The winning first move of the last win found (pv[0]); deeper entries are not kept. */
  readonly pv = new Int32Array(MAX_PLIES);

  private pos!: VcfPosition;
  private patterns!: PatternBoard;
  private stop: VcfStop | undefined;
  private nodeLimit = 0;
  private stride = 0;
  private moves = new Int32Array(0);
  private order = new Int32Array(0);
  private stamp = new Int32Array(0);
  private stampValue = 0;
  /**
   * [hashLo ^ salt, hashHi, deepest d proven to fail, shallowest d proven won (NO_WIN: none)] per slot; the last
   * kernel's view when a kernel ran the search (the next one gets a copy).
   */
  private table: Int32Array = new Int32Array(VCT_TABLE_INTS);
  private salt = 0;

  /**
   * Smallest d in [2, maxDepth] (attacker moves) of a VCT win for the side to move, 1 for a five on
   * the board's next move, or 0 (none within the budget; `stopped` says whether the budget ended it).
   */
  findWin(pos: VctPosition, maxDepth: number, nodeLimit: number, stop?: VcfStop): number {
    const patterns = pos.patterns;
    if (patterns === null) return 0;
    const kernel = pos.vctKernel?.() ?? null;
    if (kernel !== null) {
      if (kernel.vctOwner !== this) {
        // The board's table holds another solver's results: that solver keeps a copy of them.
        kernel.vctOwner?.release(kernel.vctTable);
        kernel.vctTable.set(this.table);
        this.table = kernel.vctTable;
        kernel.vctOwner = this;
      }
      const d = kernel.findVct(patterns.exact, maxDepth, nodeLimit, stop);
      this.nodes = kernel.vctNodes;
      this.stopped = kernel.vctStopped;
      if (d > 0) this.pv[0] = kernel.vctMove;
      return d;
    }
    this.pos = pos;
    this.patterns = patterns;
    this.stop = stop;
    this.nodes = 0;
    this.nodeLimit = nodeLimit;
    this.stopped = false;
    this.salt = patterns.exact ? 0x2f6b83a5 : 0x61c88647;
    // A defender node lists its fours and then w's line cells before removing duplicates.
    this.stride = 2 * pos.cellCount + 8 * LINE_REACH + 1;
    if (this.moves.length < this.stride * MAX_PLIES) {
      this.moves = new Int32Array(this.stride * MAX_PLIES);
      this.order = new Int32Array(this.stride * MAX_PLIES);
    }
    if (this.stamp.length < pos.cellCount) this.stamp = new Int32Array(pos.cellCount);
    const a = pos.side;
    if (patterns.count(a, F_FIVE) > 0) {
      this.pv[0] = patterns.item(a, F_FIVE, 0);
      return 1;
    }
    const depthLimit = Math.min(maxDepth, MAX_VCT_DEPTH);
    for (let d = 2; d <= depthLimit; d++) {
      if (this.attack(d, 0)) return d;
      if (this.stopped) return 0;
    }
    return 0;
  }

  /** Another solver takes over the kernel table `view`: when it holds this solver's table, this one keeps a copy. */
  release(view: Int32Array): void {
    if (this.table === view) this.table = view.slice();
  }

  /** Attacker to move with d moves left (counting the final five). */
  private attack(d: number, ply: number): boolean {
    const pos = this.pos;
    const patterns = this.patterns;
    const a = pos.side;
    const o = 1 - a;
    if (patterns.count(a, F_FIVE) > 0) {
      this.pv[ply] = patterns.item(a, F_FIVE, 0);
      return true;
    }
    if (d <= 1) return false;
    const enemyFives = patterns.count(o, F_FIVE);
    if (enemyFives >= 2) return false;
    if (enemyFives === 0 && patterns.count(a, F_WIN4) > 0) {
      this.pv[ply] = patterns.item(a, F_WIN4, 0);
      return true;
    }
    if (ply + 2 >= MAX_PLIES) return false;
    const slot = ((pos.hashLo ^ this.salt) & TT_MASK) * TT_ENTRY;
    const table = this.table;
    const hit = table[slot] === (pos.hashLo ^ this.salt) && table[slot + 1] === pos.hashHi;
    if (hit && table[slot + 2] >= d) return false;
    if (hit && ply > 0 && table[slot + 3] <= d) return true;

    const base = ply * this.stride;
    const moves = this.moves;
    const order = this.order;
    let count = 0;
    if (enemyFives === 1) {
      moves[base] = patterns.item(o, F_FIVE, 0);
      count = 1;
    } else {
      for (let i = 0, fours = patterns.count(a, F_FOUR); i < fours; i++) {
        const cell = patterns.item(a, F_FOUR, i);
        moves[base + count] = cell;
        order[base + count++] = 1_000_000 + patterns.value(cell, a);
      }
      if (d >= 3) {
        for (let i = 0, threes = patterns.count(a, F_THREE); i < threes; i++) {
          const cell = patterns.item(a, F_THREE, i);
          if ((patterns.flags(cell, a) & F_FOUR) !== 0) continue;
          moves[base + count] = cell;
          order[base + count++] = patterns.value(cell, a) + (patterns.value(cell, o) >> 1);
        }
      }
    }
    for (let i = 0; i < count; i++) {
      const move = pickBest(this.moves, this.order, base + i, base + count);
      pos.makeMove(move);
      this.nodes++;
      if (this.nodes >= this.nodeLimit || ((this.nodes & CHECK_MASK) === 0 && this.stop !== undefined && this.stop.shouldStop())) {
        this.stopped = true;
      }
      let won = false;
      if (!this.stopped) {
        const fives = patterns.count(a, F_FIVE);
        if (fives >= 2) won = true;
        else if (fives === 1) {
          // A four: the block is forced (the defender has no five cell: none before, or just blocked).
          const block = patterns.item(a, F_FIVE, 0);
          pos.makeMove(block);
          won = this.attack(d - 1, ply + 2);
          pos.unmakeMove(block);
        } else if (d >= 3 && patterns.count(a, F_WIN4) > 0) {
          won = this.defend(d - 1, ply + 1);
        }
      }
      pos.unmakeMove(move);
      if (won) {
        this.pv[ply] = move;
        return this.store(slot, d, true);
      }
      if (this.stopped) return false;
    }
    return this.store(slot, d, false);
  }

  /** Defender to move after a three: the attacker (d moves left, d >= 2) has a winning-four cell and no five cell. */
  private defend(d: number, ply: number): boolean {
    const pos = this.pos;
    const patterns = this.patterns;
    const o = pos.side;
    const a = 1 - o;
    const base = ply * this.stride;
    const moves = this.moves;
    const mark = ++this.stampValue;
    const stamp = this.stamp;
    let count = 0;
    for (let i = 0, fours = patterns.count(o, F_FOUR); i < fours; i++) {
      const cell = patterns.item(o, F_FOUR, i);
      stamp[cell] = mark;
      moves[base + count++] = cell;
    }
    const w = patterns.item(a, F_WIN4, 0);
    if (stamp[w] !== mark) {
      stamp[w] = mark;
      moves[base + count++] = w;
    }
    const lines = count;
    let end = base + count;
    for (let dir = 0; dir < 4; dir++) {
      if (patterns.classAt(w, dir, a) >= C_BLOCK4) end = patterns.lineCells(w, dir, LINE_REACH, moves, end);
    }
    for (let j = base + lines; j < end; j++) {
      const cell = moves[j];
      if (stamp[cell] === mark) continue;
      stamp[cell] = mark;
      moves[base + count++] = cell;
    }
    for (let i = 0; i < count; i++) {
      const move = moves[base + i];
      pos.makeMove(move);
      this.nodes++;
      if (this.nodes >= this.nodeLimit || ((this.nodes & CHECK_MASK) === 0 && this.stop !== undefined && this.stop.shouldStop())) {
        this.stopped = true;
      }
      // A reply that leaves the defender no five cell and the attacker a winning-four cell loses in two.
      const lost = !this.stopped && ((patterns.count(o, F_FIVE) === 0 && patterns.count(a, F_WIN4) > 0) || this.attack(d, ply + 1));
      pos.unmakeMove(move);
      if (!lost) return false;
    }
    return true;
  }

  private store(slot: number, d: number, won: boolean): boolean {
    if (this.stopped) return won;
    const table = this.table;
    const lo = this.pos.hashLo ^ this.salt;
    if (table[slot] !== lo || table[slot + 1] !== this.pos.hashHi) {
      table[slot] = lo;
      table[slot + 1] = this.pos.hashHi;
      table[slot + 2] = 0;
      table[slot + 3] = NO_WIN;
    }
    if (won) {
      if (d < table[slot + 3]) table[slot + 3] = d;
    } else if (d > table[slot + 2]) {
      table[slot + 2] = d;
    }
    return won;
  }
}
