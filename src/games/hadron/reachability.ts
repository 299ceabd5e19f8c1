/**
 * Can a board arise in a real game? Only used at the edge (decodeState), never in the search.
 *
 * What the rules make impossible, and what is merely unusual:
 *  - A piece whose neighbours are unbalanced NOW is fine: neighbours placed after it changed the
 *    balance. Rejecting that would refuse ordinary game positions.
 *  - A placement order must exist in which every piece, when placed, saw balanced neighbours, and
 *    the colours alternate W, B, W, ... Going backwards, the last piece placed had only earlier
 *    neighbours, so it is balanced in the final position and has the last mover's colour; remove it
 *    and repeat. A position is reachable iff such a removal sequence empties the board. The
 *    simplest impossible case is an isolated pair of adjacent pieces: whichever came second saw
 *    exactly one neighbour.
 *
 * The search is exponential in the worst case, so it runs under a node budget; when the budget is
 * spent the position is accepted (we only reject what is proven impossible).
 */
import { BLACK, EMPTY, type Geometry, NEIGHBOUR_SLOTS, WHITE } from './geometry.js';

export type Reachability =
  | { readonly kind: 'reachable' }
  | { readonly kind: 'unknown' }
  /** `cells`: a group of adjacent pieces that no order of placements can produce, when one is found. */
  | { readonly kind: 'impossible'; readonly cells: readonly number[] };

const DEFAULT_BUDGET = 5_000;

interface SearchState {
  readonly g: Geometry;
  readonly cells: Uint8Array;
  /** Remaining W minus B pieces adjacent to each cell. */
  readonly balance: Int8Array;
  readonly failed: Set<string>;
  budget: number;
  /** false: ignore the W/B alternation (used to find a culprit group). */
  readonly alternate: boolean;
}

export function checkReachable(g: Geometry, board: ArrayLike<number>, budget = DEFAULT_BUDGET): Reachability {
  const cells = Uint8Array.from({ length: g.cellCount }, (_, i) => board[i]);
  const whole = search(g, cells, true, budget);
  if (whole !== false) return whole === true ? { kind: 'reachable' } : { kind: 'unknown' };
  // Impossible. Name a culprit: a connected group that fails even without the alternation.
  for (const group of pieceGroups(g, cells)) {
    const sub = new Uint8Array(g.cellCount);
    for (const cell of group) sub[cell] = cells[cell];
    if (search(g, sub, false, budget) === false) return { kind: 'impossible', cells: group };
  }
  return { kind: 'impossible', cells: [] };
}

/** true: an order exists; false: none exists; null: budget spent. */
function search(g: Geometry, cells: Uint8Array, alternate: boolean, budget: number): boolean | null {
  const balance = new Int8Array(g.cellCount);
  let whites = 0;
  let blacks = 0;
  for (let cell = 0; cell < g.cellCount; cell++) {
    const piece = cells[cell];
    if (piece === EMPTY) continue;
    if (piece === WHITE) whites++;
    else blacks++;
    for (let k = 0; k < g.neighbourCount[cell]; k++) balance[g.neighbours[cell * NEIGHBOUR_SLOTS + k]] += piece === WHITE ? 1 : -1;
  }
  const state: SearchState = { g, cells, balance, failed: new Set(), budget, alternate };
  const found = removeAll(state, whites, blacks);
  return state.budget < 0 ? (found ? true : null) : found;
}

function removeAll(s: SearchState, whites: number, blacks: number): boolean {
  if (whites + blacks === 0) return true;
  if (--s.budget < 0) return false;
  if (hasBlockingCycle(s.g, s.cells)) return false;
  const key = stateKey(s.cells);
  if (s.failed.has(key)) return false;
  // With alternation the last piece placed has the colour of the side with more pieces.
  const colour = whites > blacks ? WHITE : BLACK;
  const { g, cells, balance } = s;
  // Pieces with occupied neighbours first: their removability is fragile, while an isolated piece
  // stays removable and is best kept as a tempo filler for the colour alternation.
  for (let pass = 0; pass < 2; pass++) {
    for (let cell = 0; cell < g.cellCount; cell++) {
      const piece = cells[cell];
      if (piece === EMPTY || balance[cell] !== 0) continue;
      if (s.alternate && piece !== colour) continue;
      if (hasOccupiedNeighbour(g, cells, cell) === (pass === 1)) continue;
      const delta = piece === WHITE ? 1 : -1;
      cells[cell] = EMPTY;
      for (let k = 0; k < g.neighbourCount[cell]; k++) balance[g.neighbours[cell * NEIGHBOUR_SLOTS + k]] -= delta;
      const done = removeAll(s, whites - (piece === WHITE ? 1 : 0), blacks - (piece === BLACK ? 1 : 0));
      cells[cell] = piece;
      for (let k = 0; k < g.neighbourCount[cell]; k++) balance[g.neighbours[cell * NEIGHBOUR_SLOTS + k]] += delta;
      if (done) return true;
      if (s.budget < 0) return false;
    }
  }
  s.failed.add(key);
  return false;
}

/**
 * A piece p is blocked by a neighbour q when p has no neighbour of the other colour than q: while q
 * stays, p's balance cannot reach 0, so q must be removed first. A cycle of such pieces can never
 * be removed (none of them can go first), and removals elsewhere never break the cycle.
 */
function hasBlockingCycle(g: Geometry, cells: Uint8Array): boolean {
  const n = g.cellCount;
  // Pieces whose occupied neighbours all have one colour are blocked by every one of them.
  const blocked = new Uint8Array(n);
  for (let cell = 0; cell < n; cell++) {
    if (cells[cell] === EMPTY) continue;
    let colours = 0;
    for (let k = 0; k < g.neighbourCount[cell]; k++) colours |= 1 << cells[g.neighbours[cell * NEIGHBOUR_SLOTS + k]];
    colours &= ~1;
    if (colours === 1 << WHITE || colours === 1 << BLACK) blocked[cell] = 1;
  }
  // Kahn's algorithm on the blocked pieces: what cannot be peeled off lies on a cycle.
  const outDegree = new Uint8Array(n);
  const queue: number[] = [];
  for (let cell = 0; cell < n; cell++) {
    if (!blocked[cell]) continue;
    for (let k = 0; k < g.neighbourCount[cell]; k++) if (blocked[g.neighbours[cell * NEIGHBOUR_SLOTS + k]]) outDegree[cell]++;
    if (outDegree[cell] === 0) queue.push(cell);
  }
  let peeled = queue.length;
  let total = 0;
  for (let cell = 0; cell < n; cell++) total += blocked[cell];
  while (queue.length > 0) {
    const cell = queue.pop()!;
    for (let k = 0; k < g.neighbourCount[cell]; k++) {
      const p = g.neighbours[cell * NEIGHBOUR_SLOTS + k];
      // p -> cell is an edge when p is blocked and cell is occupied.
      if (blocked[p] && --outDegree[p] === 0) {
        queue.push(p);
        peeled++;
      }
    }
  }
  return peeled < total;
}

function hasOccupiedNeighbour(g: Geometry, cells: Uint8Array, cell: number): boolean {
  for (let k = 0; k < g.neighbourCount[cell]; k++) if (cells[g.neighbours[cell * NEIGHBOUR_SLOTS + k]] !== EMPTY) return true;
  return false;
}

function stateKey(cells: Uint8Array): string {
  return String.fromCharCode(...cells);
}

/** Connected groups of orthogonally adjacent pieces. */
function pieceGroups(g: Geometry, cells: Uint8Array): number[][] {
  const seen = new Uint8Array(g.cellCount);
  const groups: number[][] = [];
  for (let start = 0; start < g.cellCount; start++) {
    if (cells[start] === EMPTY || seen[start]) continue;
    const group = [start];
    seen[start] = 1;
    for (let i = 0; i < group.length; i++) {
      const cell = group[i];
      for (let k = 0; k < g.neighbourCount[cell]; k++) {
        const q = g.neighbours[cell * NEIGHBOUR_SLOTS + k];
        if (cells[q] !== EMPTY && !seen[q]) {
          seen[q] = 1;
          group.push(q);
        }
      }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}
