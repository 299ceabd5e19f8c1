/**
 * A uniform game tree with a pseudo-random evaluation at every node, for the generic search's selective machinery:
 * every move is marked forcing (never reduced or pruned) and no node is quiet, so the selective search is plain
 * principal-variation alpha-beta, and a fixed depth has one minimax value whatever the root's window. The nodes are
 * paths (no transpositions), keyed by a hash of the moves played.
 */
import { NOT_TERMINAL } from '../../src/search/score.js';
import { TACTICAL_HINT, type SearchPosition, type SelectiveSearch } from '../../src/games/types.js';

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) | 0;
}

export class RandomTree implements SearchPosition {
  hashLo: number;
  hashHi: number;
  side = 0;
  readonly moveSpace: number;
  readonly maxMoves: number;
  readonly selectiveSearch: SelectiveSearch;
  private readonly stackLo: number[] = [];
  private readonly stackHi: number[] = [];

  /** `spread`: evaluations lie in [-spread, spread]. */
  constructor(
    seed: number,
    readonly branching: number,
    private readonly spread: number,
    aspirationDelta: number | undefined,
  ) {
    this.hashLo = mix(seed + 1);
    this.hashHi = mix(seed + 2);
    this.moveSpace = branching;
    this.maxMoves = branching;
    this.selectiveSearch = { futilityMargin: 0, futilityDepth: 0, rootReductionFrom: 1000, rootDoubleReductionFrom: 1000, aspirationDelta };
  }

  terminal(): number {
    return NOT_TERMINAL;
  }

  generateMoves(buf: Int32Array, offset: number): number {
    for (let i = 0; i < this.branching; i++) buf[offset + i] = i;
    return this.branching;
  }

  makeMove(move: number): void {
    this.stackLo.push(this.hashLo);
    this.stackHi.push(this.hashHi);
    this.hashLo = mix(this.hashLo ^ Math.imul(move + 1, 0x9e3779b1));
    this.hashHi = mix(this.hashHi + Math.imul(move + 1, 0x85ebca6b));
    this.side ^= 1;
  }

  unmakeMove(): void {
    this.hashLo = this.stackLo.pop()!;
    this.hashHi = this.stackHi.pop()!;
    this.side ^= 1;
  }

  evaluate(): number {
    return (Math.abs(mix(this.hashLo ^ this.hashHi)) % (2 * this.spread + 1)) - this.spread;
  }

  moveOrderScore(): number {
    return TACTICAL_HINT;
  }

  quietForPruning(): boolean {
    return false;
  }
}
