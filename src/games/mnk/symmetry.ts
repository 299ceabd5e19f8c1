/**
 * Board symmetries (the seed looked up mirrored / rotated boards in its table; here they prune
 * moves instead). A rectangle has 4 (identity, two mirrors, half turn), a square 8. While the
 * stones are symmetric under some of them, moves in the same orbit are equivalent: only the
 * smallest cell of each orbit needs searching.
 */
import type { MnkPosition } from './position.js';

export class Symmetries {
  readonly m: number;
  readonly n: number;
  /** maps[s * cellCount + c] = image of cell c under symmetry s (s = 0 is the identity, skipped). */
  readonly maps: Int32Array;
  readonly count: number;
  private readonly invariant: Uint8Array;

  constructor(m: number, n: number) {
    this.m = m;
    this.n = n;
    const square = m === n;
    this.count = square ? 8 : 4;
    const cells = m * n;
    this.maps = new Int32Array(this.count * cells);
    this.invariant = new Uint8Array(this.count);
    for (let s = 0; s < this.count; s++) {
      for (let r = 0; r < m; r++) {
        for (let c = 0; c < n; c++) {
          const [rr, cc] = image(s, r, c, m, n);
          this.maps[s * cells + r * n + c] = rr * n + cc;
        }
      }
    }
  }

  /**
   * Keeps in buf[offset .. offset + count) only the smallest move of each orbit under the
   * symmetries that leave the stones unchanged; returns the new count (order preserved).
   */
  pruneMoves(pos: MnkPosition, buf: Int32Array, offset: number, count: number): number {
    const cells = pos.cells;
    const size = pos.cellCount;
    let any = false;
    for (let s = 1; s < this.count; s++) {
      const base = s * size;
      let same = true;
      for (let c = 0; c < size && same; c++) if (cells[c] !== cells[this.maps[base + c]]) same = false;
      this.invariant[s] = same ? 1 : 0;
      any ||= same;
    }
    if (!any) return count;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const move = buf[offset + i];
      let canonical = true;
      for (let s = 1; s < this.count && canonical; s++) {
        if (this.invariant[s] === 1 && this.maps[s * size + move] < move) canonical = false;
      }
      if (canonical) buf[offset + kept++] = move;
    }
    return kept;
  }
}

/** Image of (r, c) under symmetry s: 0 identity, 1 mirror rows, 2 mirror columns, 3 half turn,
 *  4..7 (squares only) the transpose composed with the first four. */
function image(s: number, r: number, c: number, m: number, n: number): [number, number] {
  let rr = r;
  let cc = c;
  if (s >= 4) {
    rr = c;
    cc = r;
  }
  const t = s & 3;
  if (t === 1 || t === 3) rr = m - 1 - rr;
  if (t === 2 || t === 3) cc = n - 1 - cc;
  return [rr, cc];
}
