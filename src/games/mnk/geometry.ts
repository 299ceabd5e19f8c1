/**
 * Board geometry of an (M,N,K)-game: every "window" (K consecutive cells on a row, column or
 * diagonal) and, per cell, the windows through it. A side wins when one window is all its stones
 * (a longer line always contains such a window, so overlines win too).
 *
 * Tables depend only on (m, n, k) and are shared by every position of that shape.
 */

/** Cell-index steps of the four line directions: row, column, diagonal, anti-diagonal. */
export const DIRECTION_COUNT = 4;

export class Geometry {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly cellCount: number;
  readonly windowCount: number;
  /** First cell of each window. */
  readonly windowStart: Int32Array;
  /** Cell-index step along each window. */
  readonly windowStep: Int32Array;
  /** Direction (0..3) of each window. */
  readonly windowDirection: Uint8Array;
  /** Windows through cell c: cellWindows[cellWindowStart[c] .. cellWindowStart[c + 1]). */
  readonly cellWindowStart: Int32Array;
  readonly cellWindows: Int32Array;
  /** Row and column of each cell (cell = row * n + column). */
  readonly rowOf: Int16Array;
  readonly colOf: Int16Array;

  constructor(m: number, n: number, k: number) {
    this.m = m;
    this.n = n;
    this.k = k;
    this.cellCount = m * n;
    this.rowOf = Int16Array.from({ length: m * n }, (_, cell) => Math.floor(cell / n));
    this.colOf = Int16Array.from({ length: m * n }, (_, cell) => cell % n);
    // With k = 1 every direction yields the same one-cell window: keep one direction only.
    const directions = k === 1 ? 1 : DIRECTION_COUNT;
    const dr = [0, 1, 1, 1];
    const dc = [1, 0, 1, -1];
    let count = 0;
    for (let d = 0; d < directions; d++) count += windowsInDirection(m, n, k, dr[d], dc[d]);
    this.windowCount = count;
    this.windowStart = new Int32Array(count);
    this.windowStep = new Int32Array(count);
    this.windowDirection = new Uint8Array(count);
    const perCell = new Int32Array(this.cellCount + 1);
    let w = 0;
    for (let d = 0; d < directions; d++) {
      for (let r = 0; r < m; r++) {
        for (let c = 0; c < n; c++) {
          const endR = r + dr[d] * (k - 1);
          const endC = c + dc[d] * (k - 1);
          if (endR >= m || endC < 0 || endC >= n) continue;
          this.windowStart[w] = r * n + c;
          this.windowStep[w] = dr[d] * n + dc[d];
          this.windowDirection[w] = d;
          for (let i = 0; i < k; i++) perCell[r * n + c + i * (dr[d] * n + dc[d])]++;
          w++;
        }
      }
    }
    this.cellWindowStart = new Int32Array(this.cellCount + 1);
    for (let c = 0; c < this.cellCount; c++) this.cellWindowStart[c + 1] = this.cellWindowStart[c] + perCell[c];
    this.cellWindows = new Int32Array(this.cellWindowStart[this.cellCount]);
    const fill = this.cellWindowStart.slice(0, this.cellCount);
    for (let win = 0; win < count; win++) {
      const start = this.windowStart[win];
      const step = this.windowStep[win];
      for (let i = 0; i < k; i++) {
        const cell = start + i * step;
        this.cellWindows[fill[cell]++] = win;
      }
    }
  }
}

function windowsInDirection(m: number, n: number, k: number, dr: number, dc: number): number {
  const rows = m - dr * (k - 1);
  const cols = n - Math.abs(dc) * (k - 1);
  return rows > 0 && cols > 0 ? rows * cols : 0;
}

const cache = new Map<string, Geometry>();
const CACHE_LIMIT = 64;

/** Shared geometry for a board shape (built once, reused by every position of that shape). */
export function geometryFor(m: number, n: number, k: number): Geometry {
  const key = `${m}x${n}k${k}`;
  let g = cache.get(key);
  if (g === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    g = new Geometry(m, n, k);
    cache.set(key, g);
  }
  return g;
}
