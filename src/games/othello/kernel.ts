/**
 * The WebAssembly kernel of the endgame solver's nodes up to 12 empties (assembly/endgame.ts, AssemblyScript),
 * compiled by `npm run build` to dist/src/games/othello/endgame.wasm and instantiated here once per
 * thread. Its tables (edge stability, base-3 digits, column scatter; the solver's square order) are copied in, so
 * the TypeScript and the WebAssembly paths read the same data.
 *
 * Found next to this module (dist/) or, when the sources run directly (tests through ts-node), in the
 * build output. Without the file, or after disableEndgameKernel() (the bench's comparison), endgameKernel()
 * is null and the solver runs its TypeScript path: the same scores and node counts, slower.
 */
import { existsSync, readFileSync } from 'node:fs';
import { COLUMN_HI, COLUMN_LO, EDGE_CONFIGS, EDGE_STABLE, TERNARY } from './edges.js';
import { SQUARE_PRIORITY } from './square-priority.js';

/** The part of the WebAssembly API used here (the ES2022 library has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

export interface EndgameKernel {
  /** solver.ts's shallow search; the empties in list order, a byte each, four per word. */
  solveShallow(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    empties: number,
    passed: number,
    first: number,
    second: number,
  ): number;
  /** solver.ts's search of a node with more than seven and at most midEmpties() empties (its deep nodes, then its shallow search). */
  solveMid(pl: number, ph: number, ol: number, oh: number, alpha: number, beta: number, empties: number, passed: number, width: number): number;
  midEmpties(): number;
  /** The solver's transposition table, in the kernel's memory so that both paths share it. */
  table(): Int32Array;
  /** Nodes since the last call. */
  takeNodes(): number;
  /** For the tests: flips (low half; high half from flipsHigh) and stable discs (high half from stableHighHalf). */
  flipsOf(sq: number, pl: number, ph: number, ol: number, oh: number): number;
  flipsHigh(): number;
  stableOf(pl: number, ph: number, ol: number, oh: number): number;
  stableHighHalf(): number;
}

interface KernelExports extends Omit<EndgameKernel, 'table'> {
  memory: { buffer: ArrayBuffer };
  tableAddress(): number;
  tableInts(): number;
  edgeStableAddress(): number;
  ternaryAddress(): number;
  columnLoAddress(): number;
  columnHiAddress(): number;
  squarePriorityAddress(): number;
}

const WASM_FILE = 'endgame.wasm';

function locate(): URL | null {
  for (const relative of [`./${WASM_FILE}`, `../../../dist/src/games/othello/${WASM_FILE}`]) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url)) return url;
  }
  return null;
}

function instantiate(url: URL): EndgameKernel {
  const imports = {
    env: {
      abort(): never {
        throw new Error('othello endgame kernel: abort');
      },
    },
  };
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(url)), imports);
  const k = instance.exports as unknown as KernelExports;
  const buffer = k.memory.buffer;
  new Uint8Array(buffer, k.edgeStableAddress(), EDGE_CONFIGS).set(EDGE_STABLE);
  new Int32Array(buffer, k.ternaryAddress(), 256).set(TERNARY);
  new Int32Array(buffer, k.columnLoAddress(), 256).set(COLUMN_LO);
  new Int32Array(buffer, k.columnHiAddress(), 256).set(COLUMN_HI);
  new Int32Array(buffer, k.squarePriorityAddress(), SQUARE_PRIORITY.length).set(SQUARE_PRIORITY);
  // The memory never grows after instantiation (the kernel allocates nothing), so the view stays valid.
  const table = new Int32Array(buffer, k.tableAddress(), k.tableInts());
  return {
    solveShallow: k.solveShallow,
    solveMid: k.solveMid,
    midEmpties: k.midEmpties,
    table: () => table,
    takeNodes: k.takeNodes,
    flipsOf: k.flipsOf,
    flipsHigh: k.flipsHigh,
    stableOf: k.stableOf,
    stableHighHalf: k.stableHighHalf,
  };
}

let kernel: EndgameKernel | null | undefined;

/** The kernel of this thread, or null (no compiled file, or switched off). */
export function endgameKernel(): EndgameKernel | null {
  if (kernel === undefined) {
    const url = locate();
    kernel = url === null ? null : instantiate(url);
  }
  return kernel;
}

/** The TypeScript path for the rest of this thread (for measuring the kernel): call before the first solve. */
export function disableEndgameKernel(): void {
  kernel = null;
}
