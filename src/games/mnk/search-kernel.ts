/**
 * The K = 5 search below the root in WebAssembly (assembly/search.ts, in the pattern board's kernel and memory):
 * src/search/search.ts's negamax with the pattern path's make and unmake, evaluation, move lists and hints inside, one
 * call per subtree (SearchPosition.subtreeSearch). The position hands its candidate arrays over to the kernel's
 * memory once (position.ts), so both searches read and update one copy; the policy tables, the reduction tables and
 * the board's Zobrist keys and neighbour lists are copied in once per board. The transposition table and the stop
 * check stay the calling search's, through the kernel's imports.
 *
 * The same kernel runs the root's pattern VCT (assembly/vct.ts, VctSolver's findWin through findVct), with the
 * solver's table of proven results handed over to its memory.
 *
 * The kernel covers a subtree only when no node of it with a ply left reaches the last FULL_WIDTH_EMPTIES empties
 * (whose move lists are the window engine's, kept in TypeScript): there the TypeScript negamax runs.
 */
import type { SelectiveSearch, SubtreeHost, SubtreeSearch } from '../types.js';
import type { TranspositionTable } from '../../search/tt.js';
import { LOG_REDUCTIONS, MOVE_COUNTS } from '../../search/search.js';
import { MAX_PLY } from '../../search/score.js';
import type { SearchBridge, SearchExports } from './pattern-kernel.js';
import { HAS_POLICY, HINT_VALUE, POLICY_ENEMY, POLICY_FAR, POLICY_LINE, POLICY_OWN, TEMPO_QUARTERS } from './pattern-tables.js';
import { LAST_OPPONENT_BY_DISTANCE, LAST_OWN_BY_DISTANCE } from './pattern-search.js';
import { FULL_WIDTH_EMPTIES } from './moves.js';
import { VCT_TABLE_INTS, type VctKernel, type VctSolver } from './vct.js';
import type { VcfStop } from './vcf.js';

/** assembly/search.ts searchOffsetOf() indices. */
const S_POLICY_OWN = 0;
const S_POLICY_ENEMY = 1;
const S_POLICY_LINE = 2;
const S_LAST_OPPONENT = 3;
const S_LAST_OWN = 4;
const S_MOVE_COUNTS = 5;
const S_LOG_REDUCTIONS = 6;
const S_ZOBRIST = 7;
const S_NEIGHBOUR_START = 8;
const S_NEIGHBOUR_CELLS = 9;
const S_NEIGHBOUR_RING1 = 10;
const S_NEAR = 11;
const S_NEAR_RING1 = 12;
const S_CANDIDATES = 13;
const S_CANDIDATE_INDEX = 14;
const S_KILLERS = 15;
const S_HISTORY = 16;
const S_PV_TABLE = 17;
const S_PV_LENGTH = 18;
const S_HIT = 19;
const S_EVAL_AT = 20;
/** assembly/vct.ts vctOffsetOf() indices. */
const V_TABLE = 0;
const V_HINT_VALUE = 1;
const V_PV = 2;
/** assembly/search.ts RING_MAX: neighbours a cell's candidate ring may have. */
const RING_MAX = 24;
/** search.ts EXTENSION_MAX_PLY: single replies are extended (no ply used) above this ply. */
const EXTENSION_MAX_PLY = 40;

/** What the kernel reads of a position (MnkPosition's fields; an interface keeps the modules acyclic). */
export interface KernelPosition {
  readonly cellCount: number;
  readonly side: number;
  readonly hashLo: number;
  readonly hashHi: number;
  readonly stones: number;
  readonly candidateCount: number;
  readonly ply: number;
  readonly searchRootPly: number;
  readonly played: Int32Array;
  readonly completedLine: Uint8Array;
  readonly selectiveSearch: SelectiveSearch | null;
}

/** The position's data the kernel copies in once: arrays it then owns (returned as views of its memory). */
export interface KernelBoardData {
  /** Zobrist keys of this board, per (side * cells + cell) * 2: low word, high word. */
  readonly zobrist: Int32Array;
  readonly neighbourStart: Int32Array;
  readonly neighbourCells: Int32Array;
  readonly neighbourRing1: Uint8Array;
  readonly near: Uint16Array;
  readonly nearRing1: Uint16Array;
  readonly candidates: Int32Array;
  readonly candidateIndex: Int32Array;
}

/** The position's candidate arrays, now views of the kernel's memory. */
export interface KernelViews {
  readonly near: Uint16Array;
  readonly nearRing1: Uint16Array;
  readonly candidates: Int32Array;
  readonly candidateIndex: Int32Array;
}

let disabled = false;

/** The TypeScript negamax for boards made from now on in this thread (the bench's and the tests' comparison). */
export function useSearchKernel(on: boolean): void {
  disabled = !on;
}

/** Whether a board of this many cells and ring size can search in the kernel (given a kernel with a search). */
export function searchKernelApplies(cellCount: number, neighbourCount: number): boolean {
  return !disabled && HAS_POLICY && neighbourCount <= RING_MAX * cellCount;
}

export class MnkSearchKernel implements SubtreeSearch, SearchBridge, VctKernel {
  readonly killers: Int32Array;
  readonly history: Int32Array;
  readonly pvTable: Int32Array;
  readonly pvLength: Int32Array;
  readonly evalAtPly: Int32Array;
  nodes = 0;
  heuristicLeaves = 0;
  readonly probCuts = 0;
  readonly vctTable: Int32Array;
  vctOwner: VctSolver | null = null;
  vctNodes = 0;
  vctStopped = false;
  vctMove = -1;
  private readonly hit: Int32Array;
  private readonly vctLine: Int32Array;
  private host: SubtreeHost | null = null;
  /** The stop check of the VCT running now (the search's stop check otherwise). */
  private vctStop: VcfStop | undefined;

  constructor(
    private readonly pos: KernelPosition,
    private readonly k: SearchExports,
    buffer: ArrayBuffer,
    private readonly sideKeyLo: number,
    private readonly sideKeyHi: number,
  ) {
    const at = (which: number): number => k.searchOffsetOf(which);
    this.killers = new Int32Array(buffer, at(S_KILLERS), MAX_PLY * 2);
    this.history = new Int32Array(buffer, at(S_HISTORY), 2 * pos.cellCount);
    this.pvTable = new Int32Array(buffer, at(S_PV_TABLE), MAX_PLY * MAX_PLY);
    this.pvLength = new Int32Array(buffer, at(S_PV_LENGTH), MAX_PLY + 1);
    this.evalAtPly = new Int32Array(buffer, at(S_EVAL_AT), MAX_PLY + 2);
    this.hit = new Int32Array(buffer, at(S_HIT), 8);
    this.vctTable = new Int32Array(buffer, k.vctOffsetOf(V_TABLE), VCT_TABLE_INTS);
    this.vctLine = new Int32Array(buffer, k.vctOffsetOf(V_PV), 1);
  }

  /** Copies the board's data into the kernel's memory; answers the views the position must use from now on. */
  static load(k: SearchExports, buffer: ArrayBuffer, data: KernelBoardData): KernelViews {
    const at = (which: number): number => k.searchOffsetOf(which);
    new Int32Array(buffer, at(S_POLICY_OWN), POLICY_OWN.length).set(POLICY_OWN);
    new Int32Array(buffer, at(S_POLICY_ENEMY), POLICY_ENEMY.length).set(POLICY_ENEMY);
    new Int16Array(buffer, at(S_POLICY_LINE), POLICY_LINE.length).set(POLICY_LINE);
    new Int32Array(buffer, at(S_LAST_OPPONENT), LAST_OPPONENT_BY_DISTANCE.length).set(LAST_OPPONENT_BY_DISTANCE);
    new Int32Array(buffer, at(S_LAST_OWN), LAST_OWN_BY_DISTANCE.length).set(LAST_OWN_BY_DISTANCE);
    new Int32Array(buffer, at(S_MOVE_COUNTS), MOVE_COUNTS.length).set(MOVE_COUNTS);
    new Int32Array(buffer, at(S_LOG_REDUCTIONS), LOG_REDUCTIONS.length).set(LOG_REDUCTIONS);
    new Int32Array(buffer, k.vctOffsetOf(V_HINT_VALUE), HINT_VALUE.length).set(HINT_VALUE);
    new Int32Array(buffer, at(S_ZOBRIST), data.zobrist.length).set(data.zobrist);
    new Int32Array(buffer, at(S_NEIGHBOUR_START), data.neighbourStart.length).set(data.neighbourStart);
    new Int32Array(buffer, at(S_NEIGHBOUR_CELLS), data.neighbourCells.length).set(data.neighbourCells);
    new Uint8Array(buffer, at(S_NEIGHBOUR_RING1), data.neighbourRing1.length).set(data.neighbourRing1);
    const views: KernelViews = {
      near: new Uint16Array(buffer, at(S_NEAR), data.near.length),
      nearRing1: new Uint16Array(buffer, at(S_NEAR_RING1), data.nearRing1.length),
      candidates: new Int32Array(buffer, at(S_CANDIDATES), data.candidates.length),
      candidateIndex: new Int32Array(buffer, at(S_CANDIDATE_INDEX), data.candidateIndex.length),
    };
    views.near.set(data.near);
    views.nearRing1.set(data.nearRing1);
    views.candidates.set(data.candidates);
    views.candidateIndex.set(data.candidateIndex);
    return views;
  }

  /** The calling search's own table, read through the imports. */
  bindTable(owner: TranspositionTable): TranspositionTable {
    return owner;
  }

  /** No node of the subtree with a ply left may reach the last empties (single replies above EXTENSION_MAX_PLY use none). */
  covers(depth: number, ply: number): boolean {
    const extensions = ply < EXTENSION_MAX_PLY ? EXTENSION_MAX_PLY - ply : 0;
    return this.pos.cellCount - this.pos.stones - depth - extensions > FULL_WIDTH_EMPTIES;
  }

  negamax(
    host: SubtreeHost,
    depth: number,
    alpha: number,
    beta: number,
    ply: number,
    keyLo: number,
    keyHi: number,
    nodes: number,
    checkMask: number,
  ): number {
    const pos = this.pos;
    const k = this.k;
    this.host = host;
    const sel = pos.selectiveSearch;
    k.setSettings(
      sel === null ? 0 : 1,
      sel?.futilityMargin ?? 0,
      sel?.futilityDepth ?? 0,
      sel?.logReductionRelief ?? -1,
      TEMPO_QUARTERS,
      POLICY_FAR,
      this.sideKeyLo,
      this.sideKeyHi,
    );
    const at = pos.ply;
    const score = k.search(
      depth,
      alpha,
      beta,
      ply,
      pos.side,
      pos.hashLo,
      pos.hashHi,
      keyLo,
      keyHi,
      pos.stones,
      pos.candidateCount,
      at >= 1 ? pos.played[at - 1] : -1,
      at >= 2 ? pos.played[at - 2] : -1,
      at >= 1 ? pos.completedLine[at - 1] : 0,
      at - pos.searchRootPly - ply,
      nodes,
      checkMask,
    );
    this.nodes = k.nodesAfter();
    this.heuristicLeaves = k.heuristicLeaves();
    return score;
  }

  ttProbe(lo: number, hi: number, ply: number): number {
    return this.host!.probeTable(lo, hi, ply, this.hit) ? 1 : 0;
  }

  ttStore(lo: number, hi: number, depth: number, bound: number, score: number, ply: number, move: number, exact: number): void {
    this.host!.storeTable(lo, hi, depth, bound, score, ply, move, exact !== 0);
  }

  pollStop(nodes: number): number {
    if (this.vctStop !== undefined) return this.vctStop.shouldStop() ? 1 : 0;
    return this.host!.pollStop(nodes) ? 1 : 0;
  }

  findVct(exact: boolean, maxDepth: number, nodeLimit: number, stop: VcfStop | undefined): number {
    const pos = this.pos;
    this.vctStop = stop;
    try {
      const d = this.k.vctFindWin(
        pos.side,
        pos.hashLo,
        pos.hashHi,
        pos.stones,
        pos.candidateCount,
        this.sideKeyLo,
        this.sideKeyHi,
        exact ? 1 : 0,
        maxDepth,
        nodeLimit,
        stop === undefined ? 0 : 1,
      );
      this.vctNodes = this.k.vctNodes();
      this.vctStopped = this.k.vctStopped() !== 0;
      this.vctMove = d > 0 ? this.vctLine[0] : -1;
      return d;
    } finally {
      this.vctStop = undefined;
    }
  }
}
