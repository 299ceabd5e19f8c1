/**
 * A game tree for testing time management: every position has `branching` moves (the root 3), no
 * transpositions, and the value of a position depends on the first root move and the path's length.
 * Root move 0 looks best to shallow searches (+50 for the root side while the line has fewer than
 * `trapPlies` moves) but loses material once a search reaches `trapPlies` (-100); root move 1 is
 * worth +10 at any depth; root move 2 is worth about -20 (small path-dependent noise, so its subtree
 * is not pruned away cheaply). So an iteration of depth `trapPlies` changes the best move from 0 to 1.
 */
import { NOT_TERMINAL } from '../../src/search/score.js';
import type { SearchPosition } from '../../src/games/types.js';

export class TrapGame implements SearchPosition {
  hashLo = 0x1234567;
  hashHi = 0x7654321;
  side = 0;
  readonly moveSpace: number;
  readonly maxMoves: number;
  private readonly path: number[] = [];
  private readonly hashes: number[] = [];
  /** Called on every makeMove with the path length after the move (tests read the search's node count). */
  onMove: ((plies: number, move: number) => void) | undefined;

  constructor(
    private readonly branching: number,
    private readonly trapPlies: number,
  ) {
    this.moveSpace = Math.max(3, branching);
    this.maxMoves = this.moveSpace;
  }

  terminal(): number {
    return NOT_TERMINAL;
  }

  generateMoves(buf: Int32Array, offset: number): number {
    const n = this.path.length === 0 ? 3 : this.branching;
    for (let i = 0; i < n; i++) buf[offset + i] = i;
    return n;
  }

  makeMove(move: number): void {
    this.hashes.push(this.hashLo, this.hashHi);
    this.path.push(move);
    this.hashLo = Math.imul(this.hashLo ^ (move + 1), 0x9e3779b1) ^ this.path.length;
    this.hashHi = Math.imul(this.hashHi + move * 7 + 3, 0x85ebca6b) ^ (this.path.length << 16);
    this.side ^= 1;
    this.onMove?.(this.path.length, move);
  }

  unmakeMove(): void {
    this.path.pop();
    this.hashHi = this.hashes.pop()!;
    this.hashLo = this.hashes.pop()!;
    this.side ^= 1;
  }

  evaluate(): number {
    const first = this.path[0];
    let forRoot: number;
    if (first === 0) forRoot = this.path.length < this.trapPlies ? 50 : -100;
    else if (first === 1) forRoot = 10;
    else forRoot = -20 + (((this.hashLo >>> 3) % 9) - 4);
    return this.side === 0 ? forRoot : -forRoot;
  }
}
