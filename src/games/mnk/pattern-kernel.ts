/**
 * The WebAssembly kernel of the pattern board's make and unmake (assembly/patterns.ts, AssemblyScript), compiled
 * by `npm run build` to dist/src/games/mnk/patterns.wasm, compiled here once per thread and instantiated once per
 * board with a memory of its own: the board's arrays live in that memory, so patterns.ts reads them as typed
 * arrays while place and remove run in the kernel.
 *
 * Found next to this module (dist/) or, when the sources run directly (tests through ts-node), in the build
 * output. Without the file, or after usePatternKernel(false) (the bench's comparison), patternKernel() is null and
 * the board runs its TypeScript path: the same state after every move, slower.
 */
import { existsSync, readFileSync } from 'node:fs';
import { HALF_CODES, HALF_KEYS, HALF_LINE, type HalfLineTables } from './pattern-tables.js';

/** The part of the WebAssembly API used here (the ES2022 library has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
};

/** Arrays of the kernel's layout, by offsetOf() index (0: the rule's half-line tables, copied in when it is made). */
export const K_CELL_VALUE = 1;
export const K_CELL_FLAGS = 2;
export const K_CODES = 3;
export const K_ENTRIES = 4;
export const K_REACH_PLUS = 5;
export const K_REACH_MINUS = 6;
export const K_KEYS = 7;
export const K_CELL_FLAG_OF = 8;
export const K_CELL_VALUE_OF = 9;
export const K_VALUE_SUM = 10;
export const K_SET_SIZE = 11;
export const K_SET_ITEMS = 12;
export const K_SET_INDEX = 13;
export const K_CELLS = 14;
export const K_JOURNAL_AT = 15;
export const K_JOURNAL_ENTRY = 16;
export const K_PLACED_CELLS = 17;
export const K_PLACED_MARKS = 18;

/** The search's exports (assembly/search.ts), on a board small enough to carry its arrays. */
export interface SearchExports {
  searchOffsetOf(which: number): number;
  setSettings(on: number, margin: number, depth: number, relief: number, tempo: number, far: number, sideLo: number, sideHi: number): void;
  search(
    depth: number,
    alpha: number,
    beta: number,
    ply: number,
    side: number,
    hashLo: number,
    hashHi: number,
    saltLo: number,
    saltHi: number,
    stones: number,
    candidates: number,
    lastMove: number,
    moveBefore: number,
    lastCompleted: number,
    rootOffset: number,
    nodes: number,
    checkMask: number,
  ): number;
  nodesAfter(): number;
  heuristicLeaves(): number;
  vctOffsetOf(which: number): number;
  vctFindWin(
    side: number,
    hashLo: number,
    hashHi: number,
    stones: number,
    candidates: number,
    sideLo: number,
    sideHi: number,
    exact: number,
    maxDepth: number,
    nodeLimit: number,
    stop: number,
  ): number;
  vctNodes(): number;
  vctStopped(): number;
}

/** What the search's imports call: the table and the stop check of the search that runs it (search-kernel.ts sets it). */
export interface SearchBridge {
  ttProbe(lo: number, hi: number, ply: number): number;
  ttStore(lo: number, hi: number, depth: number, bound: number, score: number, ply: number, move: number, exact: number): void;
  pollStop(nodes: number): number;
}

/** Boards up to this many cells (32 x 32) carry the search's and the VCT's arrays (about 5 MB at the limit); larger ones search in TypeScript. */
export const SEARCH_MAX_CELLS = 1024;

export interface BoardKernel {
  /** The board's memory (never grown after construction, so views of it stay valid). */
  readonly buffer: ArrayBuffer;
  offsetOf(which: number): number;
  place(cell: number, s: number): void;
  /** 0 when `cell` was not the last stone placed (nothing changed). */
  remove(cell: number, s: number): number;
  /** The journal's length and the number of stones placed, after their arrays were copied in. */
  setCounters(journalTop: number, placedCount: number): void;
  /** PatternBoard.removesAll, 1 or 0. */
  removesAll(cell: number, s: number, flag: number): number;
  /** The search below the root (null on boards past SEARCH_MAX_CELLS), and where its imports lead (set by the position). */
  readonly search: SearchExports | null;
  readonly link: { bridge: SearchBridge | null };
}

interface KernelExports extends SearchExports {
  layout(count: number, n: number): number;
  searchLayout(): number;
  vctLayout(): number;
  offsetOf(which: number): number;
  place(cell: number, s: number): void;
  remove(cell: number, s: number): number;
  setCounters(journalTop: number, placedCount: number): void;
  removesAll(cell: number, s: number, flag: number): number;
  setRecodeReach(reach: number): void;
}

const WASM_FILE = 'patterns.wasm';
const PAGE = 65536;

let compiled: object | null | undefined;
let disabled = false;

function locate(): URL | null {
  for (const relative of [`./${WASM_FILE}`, `../../../dist/src/games/mnk/${WASM_FILE}`]) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url)) return url;
  }
  return null;
}

/** Whether boards made from now on in this thread use the kernel (the bench's and the tests' comparison; boards made before keep theirs). */
export function usePatternKernel(on: boolean): void {
  disabled = !on;
}

/** assembly/patterns.ts's HALF_KEYS and the room it leaves for the classes. */
const KERNEL_HALF_KEYS = 63;
const KERNEL_HALF_CLASS_BYTES = 4096;

/** A kernel laid out for a board of `count` cells and `n` columns, reading codes through the rule's `halves`; or null (no kernel file, or disabled). */
export function patternKernel(count: number, n: number, halves: HalfLineTables): BoardKernel | null {
  if (disabled) return null;
  if (HALF_KEYS !== KERNEL_HALF_KEYS || halves.classes.length > KERNEL_HALF_CLASS_BYTES) throw new Error('pattern kernel: half-line tables of another shape');
  if (compiled === undefined) {
    const url = locate();
    compiled = url === null ? null : new WebAssembly.Module(readFileSync(url));
  }
  if (compiled === null) return null;
  // Sized at once (growing it later costs a second allocation); the estimate is checked against layout()'s answer.
  // A memory the process cannot reserve now (many threads' boards awaiting collection) leaves this board in TypeScript.
  const withSearch = count <= SEARCH_MAX_CELLS;
  let memory: { buffer: ArrayBuffer };
  try {
    memory = new WebAssembly.Memory({ initial: Math.ceil((kernelBytes(count) + (withSearch ? searchBytes(count) + vctBytes(count) : 0)) / PAGE) });
  } catch {
    return null;
  }
  const link: { bridge: SearchBridge | null } = { bridge: null };
  const bridge = (): SearchBridge => {
    if (link.bridge === null) throw new Error('pattern kernel: no search bound');
    return link.bridge;
  };
  const env = {
    memory,
    ttProbe: (lo: number, hi: number, ply: number): number => bridge().ttProbe(lo, hi, ply),
    ttStore: (lo: number, hi: number, depth: number, bound: number, score: number, ply: number, move: number, exact: number): void =>
      bridge().ttStore(lo, hi, depth, bound, score, ply, move, exact),
    pollStop: (nodes: number): number => bridge().pollStop(nodes),
  };
  const instance = new WebAssembly.Instance(compiled, { env });
  const k = instance.exports as unknown as KernelExports;
  const end = withSearch ? (k.layout(count, n), k.searchLayout(), k.vctLayout()) : k.layout(count, n);
  if (end > memory.buffer.byteLength) throw new Error('pattern kernel: memory estimate too small');
  k.setRecodeReach(halves.outerCellInert ? HALF_LINE - 1 : HALF_LINE);
  const halfAt = k.offsetOf(0);
  new Uint8Array(memory.buffer, halfAt, halves.maps.length).set(halves.maps);
  new Uint8Array(memory.buffer, halfAt + 4 * HALF_CODES, halves.classes.length).set(halves.classes);
  return {
    buffer: memory.buffer,
    offsetOf: k.offsetOf,
    place: k.place,
    remove: k.remove,
    setCounters: k.setCounters,
    removesAll: k.removesAll,
    search: withSearch ? k : null,
    link,
  };
}

/** An upper bound of the bytes assembly/patterns.ts's layout() needs for `count` cells. */
function kernelBytes(count: number): number {
  const fixed = 65536 + 4 * HALF_CODES + KERNEL_HALF_CLASS_BYTES + 6561 * 5 + 8 * 8 + 64;
  const perCell = 16 + 4 + 4 + 4 + 4 + 2 + 8 + 2 * 4 * 4 * 2 + 40 * 5 + 4 + 4 + 1 + 2;
  return fixed + perCell * count + 64 * 5;
}

/** An upper bound of the bytes assembly/search.ts's searchLayout() adds for `count` cells (its order, padded). */
function searchBytes(count: number): number {
  const maxPly = 256;
  const fixed = 6561 * 4 * 2 + 2 * 65536 * 2 + 128 * 4 * 2 + 16 * 4 + 64 * 64 * 4 + (maxPly + 4) * 5 + maxPly * 2 * 4;
  const stacks = 2 * (maxPly + 1) * count * 4 + maxPly * maxPly * 4 + (maxPly + 1) * 4 + (maxPly + 2) * 4 + 8 * 4;
  const perCell = 4 * 4 + 4 + 24 * 5 + 2 + 2 + 4 + 4 + 2 * 4 + 4 + 2 * 4 + 4;
  return fixed + stacks + perCell * count + 4 + 64;
}

/** An upper bound of the bytes assembly/vct.ts's vctLayout() adds for `count` cells (its order, padded). */
function vctBytes(count: number): number {
  const maxPlies = 42;
  const stride = 2 * count + 33;
  return (1 << 17) * 16 + 6561 * 4 + maxPlies * 4 + count * 4 + 2 * stride * maxPlies * 4 + 8;
}
