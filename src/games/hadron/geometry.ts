/**
 * Board shapes: R x C from 2x2 to 9x9. A cell is the index row * cols + col; move codes are cell
 * indices, so every shape fits in a move space of 81.
 */

export const MIN_SIDE = 2;
export const MAX_SIDE = 9;
export const MAX_CELLS = MAX_SIDE * MAX_SIDE;
/** Orthogonal neighbours per cell, -1 padded. */
export const NEIGHBOUR_SLOTS = 4;

export const EMPTY = 0;
export const WHITE = 1;
export const BLACK = 2;

export interface Geometry {
  readonly rows: number;
  readonly cols: number;
  readonly cellCount: number;
  /** neighbours[cell * 4 + k] for k < neighbourCount[cell]; -1 beyond. */
  readonly neighbours: Int8Array;
  readonly neighbourCount: Uint8Array;
  /** Row and column of each cell (saves divisions in region keys). */
  readonly rowOf: Uint8Array;
  readonly colOf: Uint8Array;
}

const cache = new Map<number, Geometry>();

/** The shared, immutable geometry of an R x C board (built once per shape). */
export function geometryFor(rows: number, cols: number): Geometry {
  const key = rows * 16 + cols;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const cellCount = rows * cols;
  const neighbours = new Int8Array(cellCount * NEIGHBOUR_SLOTS).fill(-1);
  const neighbourCount = new Uint8Array(cellCount);
  const rowOf = new Uint8Array(cellCount);
  const colOf = new Uint8Array(cellCount);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = r * cols + c;
      rowOf[cell] = r;
      colOf[cell] = c;
      let k = 0;
      if (r > 0) neighbours[cell * NEIGHBOUR_SLOTS + k++] = cell - cols;
      if (c > 0) neighbours[cell * NEIGHBOUR_SLOTS + k++] = cell - 1;
      if (c < cols - 1) neighbours[cell * NEIGHBOUR_SLOTS + k++] = cell + 1;
      if (r < rows - 1) neighbours[cell * NEIGHBOUR_SLOTS + k++] = cell + cols;
      neighbourCount[cell] = k;
    }
  }
  const geometry: Geometry = { rows, cols, cellCount, neighbours, neighbourCount, rowOf, colOf };
  cache.set(key, geometry);
  return geometry;
}

/** Tournament notation: row letter 'A' + row, then column number col + 1 ("E5" = row 4, col 4). */
export function notationOf(cols: number, cell: number): string {
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  return `${String.fromCharCode(65 + row)}${col + 1}`;
}
