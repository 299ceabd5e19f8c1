/**
 * Each cell's candidate neighbourhood as a flat list of cell indices (the ring's offsets that stay on the board, in the
 * ring's order, so the candidate list grows in the same order as walking the offsets would): make and unmake update the
 * neighbours' counts without recomputing rows, columns and bounds at every node. Shared by the positions of one board
 * shape and ring; the lists of the last SHAPES_KEPT shapes a ring met are kept (a client choosing a new board size at
 * every request must not grow a thread's memory: a 100x100 board's lists take about 1.2 MB).
 */
export interface NeighbourLists {
  /** The neighbours of `cell` are cells[start[cell] .. start[cell + 1]). */
  readonly start: Int32Array;
  readonly cells: Int32Array;
  /** 1 where the neighbour is one of the eight adjacent cells. */
  readonly ring1: Uint8Array;
}

type Ring = readonly (readonly [number, number])[];

/** Board shapes whose lists are kept per ring (the oldest made is dropped first). */
export const SHAPES_KEPT = 16;

const cache = new WeakMap<Ring, Map<number, NeighbourLists>>();

export function neighbourLists(m: number, n: number, ring: Ring): NeighbourLists {
  let byShape = cache.get(ring);
  if (byShape === undefined) {
    byShape = new Map();
    cache.set(ring, byShape);
  }
  const key = m * 65536 + n;
  const known = byShape.get(key);
  if (known !== undefined) return known;
  const count = m * n;
  const start = new Int32Array(count + 1);
  const cells: number[] = [];
  const ring1: number[] = [];
  for (let cell = 0; cell < count; cell++) {
    start[cell] = cells.length;
    const r = (cell / n) | 0;
    const c = cell - r * n;
    for (const [dr, dc] of ring) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr < 0 || rr >= m || cc < 0 || cc >= n) continue;
      cells.push(rr * n + cc);
      ring1.push(Math.max(Math.abs(dr), Math.abs(dc)) === 1 ? 1 : 0);
    }
  }
  start[count] = cells.length;
  const lists = { start, cells: Int32Array.from(cells), ring1: Uint8Array.from(ring1) };
  if (byShape.size >= SHAPES_KEPT) byShape.delete(byShape.keys().next().value!);
  byShape.set(key, lists);
  return lists;
}
