/**
 * Subtraction game for testing the generic search: a heap of N tokens, each move takes 1..3, and the
 * player who cannot move (empty heap) loses. Theory (Bouton; any text on Nim): the side to move loses
 * iff N % 4 == 0, and with best play the game lasts 1 + 2*floor(N/4) plies when the mover wins, 2*N/4
 * when it loses. The position is a make/unmake SearchPosition like the real games.
 */
import { NOT_TERMINAL } from '../../src/search/score.js';
import type { SearchPosition } from '../../src/games/types.js';

const KEYS_LO = new Int32Array(512).map((_, i) => Math.imul(i + 1, 0x9e3779b1) | 0);
const KEYS_HI = new Int32Array(512).map((_, i) => Math.imul(i + 7, 0x85ebca6b) | 0);

export class SubtractionGame implements SearchPosition {
  hashLo = 0;
  hashHi = 0;
  side = 0;
  readonly moveSpace = 4;
  readonly maxMoves = 3;
  heap: number;
  evaluations = 0;

  constructor(heap: number, private readonly evalBias = 0) {
    this.heap = heap;
    this.rehash();
  }

  private rehash(): void {
    this.hashLo = KEYS_LO[this.heap * 2 + this.side];
    this.hashHi = KEYS_HI[this.heap * 2 + this.side];
  }

  terminal(): number {
    return NOT_TERMINAL;
  }

  generateMoves(buf: Int32Array, offset: number): number {
    const n = Math.min(3, this.heap);
    for (let i = 0; i < n; i++) buf[offset + i] = i + 1;
    return n;
  }

  makeMove(move: number): void {
    this.heap -= move;
    this.side ^= 1;
    this.rehash();
  }

  unmakeMove(move: number): void {
    this.heap += move;
    this.side ^= 1;
    this.rehash();
  }

  evaluate(): number {
    this.evaluations++;
    return this.evalBias;
  }
}
