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

/** The part of the WebAssembly API used here (the ES2022 library has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
};

/** Arrays of the kernel's layout, by offsetOf() index (0, the code table, is the kernel's own). */
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
}

interface KernelExports {
  layout(count: number, n: number): number;
  offsetOf(which: number): number;
  place(cell: number, s: number): void;
  remove(cell: number, s: number): number;
  setCounters(journalTop: number, placedCount: number): void;
  removesAll(cell: number, s: number, flag: number): number;
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

/**
 * A kernel laid out for a board of `count` cells and `n` columns, or null (no kernel file, or disabled).
 * fillCode(code) answers the code table's entries the kernel does not know yet.
 */
export function patternKernel(count: number, n: number, fillCode: (code: number) => number): BoardKernel | null {
  if (disabled) return null;
  if (compiled === undefined) {
    const url = locate();
    compiled = url === null ? null : new WebAssembly.Module(readFileSync(url));
  }
  if (compiled === null) return null;
  // Sized at once (growing it later costs a second allocation); the estimate is checked against layout()'s answer.
  // A memory the process cannot reserve now (many threads' boards awaiting collection) leaves this board in TypeScript.
  let memory: { buffer: ArrayBuffer };
  try {
    memory = new WebAssembly.Memory({ initial: Math.ceil(kernelBytes(count) / PAGE) });
  } catch {
    return null;
  }
  const instance = new WebAssembly.Instance(compiled, { env: { memory, fillCode } });
  const k = instance.exports as unknown as KernelExports;
  if (k.layout(count, n) > memory.buffer.byteLength) throw new Error('pattern kernel: memory estimate too small');
  return { buffer: memory.buffer, offsetOf: k.offsetOf, place: k.place, remove: k.remove, setCounters: k.setCounters, removesAll: k.removesAll };
}

/** An upper bound of the bytes assembly/patterns.ts's layout() needs for `count` cells. */
function kernelBytes(count: number): number {
  const fixed = 65536 + (1 << 20) + 6561 * 5 + 8 * 8 + 64;
  const perCell = 16 + 4 + 4 + 4 + 4 + 2 + 8 + 2 * 4 * 4 * 2 + 40 * 5 + 4 + 4 + 1;
  return fixed + perCell * count + 64 * 5;
}
