/**
 * The WebAssembly kernel of the midgame search (assembly/search.ts), compiled by `npm run build` to
 * dist/src/games/othello/search.wasm: the generic search's negamax with the pattern evaluation inside, one
 * call per subtree (SearchPosition.subtreeSearch). One instance per thread and pattern evaluator: the
 * evaluator's int16 tables and feature weights, the index-update tables, the Zobrist keys and the ProbCut
 * table are copied into its memory once, then every call only passes the position (boards, key, the
 * 46-word pattern block). The transposition table is a copy of the search's in the kernel's memory (or, when
 * the search's table is shared between threads, the search's own, through imports); the stop check stays
 * with the search (an import, every checkMask + 1 nodes).
 *
 * Found like the endgame kernel (kernel.ts): next to this module, or in the build output when the sources
 * run directly. Without the file, or after disableSearchKernel(), positions offer no subtree search and the
 * TypeScript negamax runs: the same nodes, slower.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { SubtreeHost, SubtreeSearch } from '../types.js';
import { MAILBOX, MOVE_SPACE, SQUARES } from './board.js';
import { INSTANCE_OFFSET, LINEAR_COUNT, type PatternEvaluator } from './pattern-eval.js';
import { INSTANCE_COUNT, PATTERN_BLOCK, SQUARE_DIGITS, SQUARE_SLOTS, SQUARE_SLOT_START } from './patterns.js';
import { MAX_PROBCUT_DEPTH, type ProbCutTable, probCutTable } from './probcut.js';
import { FLIP_KEY_HI, FLIP_KEY_LO, PLACE_KEY_HI, PLACE_KEY_LO, SIDE_KEY_HI, SIDE_KEY_LO } from './zobrist.js';
import { MAX_PLY } from '../../search/score.js';
import { TranspositionTable } from '../../search/tt.js';

/** The part of the WebAssembly API used here (the ES2022 library has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

interface SearchExports {
  memory: { buffer: ArrayBuffer };
  alloc(bytes: number): number;
  killersAddress(): number;
  historyAddress(): number;
  pvTableAddress(): number;
  pvLengthAddress(): number;
  hitAddress(): number;
  indexStackAddress(): number;
  placeLoAddress(): number;
  placeHiAddress(): number;
  flipLoAddress(): number;
  flipHiAddress(): number;
  slotStartAddress(): number;
  instanceOffsetAddress(): number;
  squareOrderAddress(): number;
  evalStageAddress(): number;
  probCutStageAddress(): number;
  allocTable(bytes: number): number;
  useTable(at: number, bucketMask: number): void;
  setData(
    slots: number,
    digits: number,
    tables: number,
    linear: number,
    block: number,
    shallow: number,
    params: number,
    stages: number,
    maxDepth: number,
    sideLo: number,
    sideHi: number,
  ): void;
  search(
    depth: number,
    alpha: number,
    beta: number,
    ply: number,
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    side: number,
    hashLo: number,
    hashHi: number,
    empties: number,
    nodes: number,
    checkMask: number,
    probCutConfidence: number,
    age: number,
  ): number;
  nodesAfter(): number;
  heuristicLeaves(): number;
  probCuts(): number;
}

/** What the kernel reads of a position (OthelloPosition's fields; an interface to keep the modules acyclic). */
export interface KernelPosition {
  readonly bits: Int32Array;
  readonly side: number;
  readonly hashLo: number;
  readonly hashHi: number;
  readonly empties: number;
  readonly probCutConfidence: number;
  /** The pattern block of the current ply: the array and where the block starts. */
  readonly indexStack: Int32Array;
  readonly indexAt: number;
}

const WASM_FILE = 'search.wasm';

/** position.ts's move-ordering square values (copied in by the position, which owns them). */
let squareOrder: Int32Array | null = null;

export function setSquareOrder(values: Int32Array): void {
  squareOrder = values;
}

function locate(): URL | null {
  for (const relative of [`./${WASM_FILE}`, `../../../dist/src/games/othello/${WASM_FILE}`]) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url)) return url;
  }
  return null;
}

let wasmBytes: Uint8Array | null | undefined;

class OthelloSearchKernel implements SubtreeSearch {
  killers!: Int32Array;
  history!: Int32Array;
  pvTable!: Int32Array;
  pvLength!: Int32Array;
  nodes = 0;
  heuristicLeaves = 0;
  probCuts = 0;
  /** The position the next call searches (set by the position when it hands out the kernel). */
  position: KernelPosition | null = null;

  private readonly k: SearchExports;
  private indexStack!: Int32Array;
  private hit!: Int32Array;
  private host: SubtreeHost | null = null;
  /** The table in this memory, the search table it stands for, and that table's clear() count when bound. */
  private table: TranspositionTable | null = null;
  private tableAt = 0;
  /** Bytes reserved at tableAt: the kernel's allocator never frees, so a smaller table reuses the region. */
  private tableCapacity = 0;
  private owner: TranspositionTable | null = null;
  private ownerClears = -1;
  /** The ProbCut table in this memory, and the addresses setData was given (slots, digits, tables, linear, shallow, params). */
  private probCutLoaded: ProbCutTable | null = null;
  private dataAt: number[] = [];

  constructor(bytes: Uint8Array, evaluator: PatternEvaluator) {
    const imports = {
      env: {
        abort(): never {
          throw new Error('othello search kernel: abort');
        },
        ttProbe: (lo: number, hi: number, ply: number): number => (this.host!.probeTable(lo, hi, ply, this.hit) ? 1 : 0),
        ttStore: (lo: number, hi: number, depth: number, bound: number, score: number, ply: number, move: number, exact: number): void =>
          this.host!.storeTable(lo, hi, depth, bound, score, ply, move, exact !== 0),
        pollStop: (nodes: number): number => (this.host!.pollStop(nodes) ? 1 : 0),
      },
    };
    const k = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports as unknown as SearchExports;
    this.k = k;
    // Every allocation first: growing the memory would detach the views made below.
    const table = probCutTable();
    const slotsAt = k.alloc(SQUARE_SLOTS.byteLength);
    const digitsAt = k.alloc(SQUARE_DIGITS.byteLength);
    const tablesAt = k.alloc(evaluator.tables.byteLength);
    const linearAt = k.alloc(evaluator.linear.byteLength + 8);
    // Room for any table (a tool may replace the committed one: probcut.ts setProbCutTable).
    const shallowAt = k.alloc((MAX_PROBCUT_DEPTH + 1) * 4);
    const paramsAt = k.alloc((MAX_PROBCUT_DEPTH + 1) * 64 * 3 * 8 + 8);
    const buffer = k.memory.buffer;
    const aligned = (at: number): number => (at + 7) & ~7;
    new Int32Array(buffer, slotsAt, SQUARE_SLOTS.length).set(SQUARE_SLOTS);
    new Int32Array(buffer, digitsAt, SQUARE_DIGITS.length).set(SQUARE_DIGITS);
    new Int16Array(buffer, tablesAt, evaluator.tables.length).set(evaluator.tables);
    new Float64Array(buffer, aligned(linearAt), evaluator.linear.length).set(evaluator.linear);
    new Int32Array(buffer, shallowAt, table.shallowOf.length).set(table.shallowOf);
    new Float64Array(buffer, aligned(paramsAt), table.params.length).set(table.params);
    new Int32Array(buffer, k.slotStartAddress(), 65).set(SQUARE_SLOT_START);
    new Int32Array(buffer, k.instanceOffsetAddress(), INSTANCE_COUNT).set(INSTANCE_OFFSET);
    new Int32Array(buffer, k.squareOrderAddress(), SQUARES).set(squareOrder!);
    new Int32Array(buffer, k.evalStageAddress(), 65).set(evaluator.stageOf);
    new Int32Array(buffer, k.probCutStageAddress(), 65).set(table.stageOf);
    const placeLo = new Int32Array(buffer, k.placeLoAddress(), 2 * SQUARES);
    const placeHi = new Int32Array(buffer, k.placeHiAddress(), 2 * SQUARES);
    const flipLo = new Int32Array(buffer, k.flipLoAddress(), SQUARES);
    const flipHi = new Int32Array(buffer, k.flipHiAddress(), SQUARES);
    for (let sq = 0; sq < SQUARES; sq++) {
      const box = MAILBOX[sq];
      for (let colour = 0; colour < 2; colour++) {
        placeLo[colour * SQUARES + sq] = PLACE_KEY_LO[colour * 100 + box];
        placeHi[colour * SQUARES + sq] = PLACE_KEY_HI[colour * 100 + box];
      }
      flipLo[sq] = FLIP_KEY_LO[box];
      flipHi[sq] = FLIP_KEY_HI[box];
    }
    k.setData(
      slotsAt,
      digitsAt,
      tablesAt,
      aligned(linearAt),
      PATTERN_BLOCK,
      shallowAt,
      aligned(paramsAt),
      table.stages,
      table.maxDepth,
      SIDE_KEY_LO,
      SIDE_KEY_HI,
    );
    this.probCutLoaded = table;
    this.dataAt = [slotsAt, digitsAt, tablesAt, aligned(linearAt), shallowAt, aligned(paramsAt)];
    if (evaluator.linear.length % LINEAR_COUNT !== 0) throw new Error('othello search kernel: feature weights');
    this.makeViews();
  }

  /** Copies a replaced ProbCut table into this memory (tools comparing tables). */
  private loadProbCut(table: ProbCutTable): void {
    const k = this.k;
    const [slotsAt, digitsAt, tablesAt, linearAt, shallowAt, paramsAt] = this.dataAt;
    const buffer = k.memory.buffer;
    new Int32Array(buffer, shallowAt, table.shallowOf.length).set(table.shallowOf);
    new Float64Array(buffer, paramsAt, table.params.length).set(table.params);
    new Int32Array(buffer, k.probCutStageAddress(), 65).set(table.stageOf);
    k.setData(slotsAt, digitsAt, tablesAt, linearAt, PATTERN_BLOCK, shallowAt, paramsAt, table.stages, table.maxDepth, SIDE_KEY_LO, SIDE_KEY_HI);
    this.probCutLoaded = table;
  }

  /** Views of the kernel's tables; made again after the memory grows (growing detaches the old ones). */
  private makeViews(): void {
    const k = this.k;
    const buffer = k.memory.buffer;
    this.killers = new Int32Array(buffer, k.killersAddress(), MAX_PLY * 2);
    this.history = new Int32Array(buffer, k.historyAddress(), 2 * MOVE_SPACE);
    this.pvTable = new Int32Array(buffer, k.pvTableAddress(), MAX_PLY * MAX_PLY);
    this.pvLength = new Int32Array(buffer, k.pvLengthAddress(), MAX_PLY + 1);
    this.hit = new Int32Array(buffer, k.hitAddress(), 8);
    this.indexStack = new Int32Array(buffer, k.indexStackAddress(), (MAX_PLY + 1) * INSTANCE_COUNT);
    if (this.table !== null) this.table = new TranspositionTable(0, new Int32Array(buffer, this.tableAt, this.table.data.length));
  }

  /** The kernel's memory (for the tests: binding tables must not grow it without bound). */
  get memoryBytes(): number {
    return this.k.memory.buffer.byteLength;
  }

  bindTable(owner: TranspositionTable): TranspositionTable {
    if (!(owner.data.buffer instanceof ArrayBuffer)) {
      // Shared with other threads (Lazy SMP): searched where it is, through the imports.
      this.k.useTable(0, 0);
      return owner;
    }
    if (this.table === null || this.table.sizeBytes !== owner.sizeBytes) {
      // Tools alternate tables of two sizes (a search and the service's): a new region only for a larger one.
      if (owner.sizeBytes > this.tableCapacity) {
        this.tableAt = this.k.allocTable(owner.sizeBytes);
        this.tableCapacity = owner.sizeBytes;
      }
      this.table = new TranspositionTable(0, new Int32Array(this.k.memory.buffer, this.tableAt, owner.data.length));
      this.makeViews();
      this.owner = null;
    }
    if (this.owner !== owner || this.ownerClears !== owner.clears) {
      this.table.clear();
      this.owner = owner;
      this.ownerClears = owner.clears;
    }
    this.k.useTable(this.tableAt, this.table.bucketMask);
    return this.table;
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
    age: number,
  ): number {
    const pos = this.position!;
    this.host = host;
    if (this.probCutLoaded !== probCutTable()) this.loadProbCut(probCutTable());
    this.indexStack.set(pos.indexStack.subarray(pos.indexAt, pos.indexAt + INSTANCE_COUNT), ply * INSTANCE_COUNT);
    const b = pos.bits;
    const s = pos.side << 1;
    const k = this.k;
    const score = k.search(
      depth,
      alpha,
      beta,
      ply,
      b[s],
      b[s + 1],
      b[2 - s],
      b[3 - s],
      pos.side,
      pos.hashLo ^ keyLo,
      pos.hashHi ^ keyHi,
      pos.empties,
      nodes,
      checkMask,
      pos.probCutConfidence,
      age,
    );
    this.nodes = k.nodesAfter();
    this.heuristicLeaves = k.heuristicLeaves();
    this.probCuts = k.probCuts();
    return score;
  }
}

const kernels = new WeakMap<PatternEvaluator, OthelloSearchKernel>();
let disabled = false;

/** This thread's kernel for the evaluator's weights, or null (no compiled file, or switched off). */
export function searchKernelFor(evaluator: PatternEvaluator, position: KernelPosition): SubtreeSearch | null {
  if (disabled) return null;
  let kernel = kernels.get(evaluator);
  if (kernel === undefined) {
    if (wasmBytes === undefined) {
      const url = locate();
      wasmBytes = url === null ? null : readFileSync(url);
    }
    if (wasmBytes === null) return null;
    kernel = new OthelloSearchKernel(wasmBytes, evaluator);
    kernels.set(evaluator, kernel);
  }
  kernel.position = position;
  return kernel;
}

/** The TypeScript negamax for the rest of this thread (for measuring the kernel, and the tests' comparison). */
export function disableSearchKernel(disable = true): void {
  disabled = disable;
}
