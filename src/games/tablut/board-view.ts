/**
 * What tactics.ts and lines.ts read of a position: the members of TablutPosition they use, and
 * nothing else. They take this interface instead of the class so that they need not import
 * position.ts, which imports tactics.ts (the house test counts type imports in import circles).
 * TablutPosition implements it over the same fields and methods: no wrapper, no extra call.
 */
export interface TablutBoardView {
  readonly hashLo: number;
  readonly hashHi: number;
  readonly side: number;
  readonly status: number;
  readonly board: Uint8Array;
  readonly kingSquare: number;
  /** Bit c of rowOccupied[r] / bit r of colOccupied[c]: square (r, c) is not EMPTY. */
  readonly rowOccupied: Uint16Array;
  readonly colOccupied: Uint16Array;
  /** The repetition record since the last capture is [recordStart, recordCount). */
  readonly recordCount: number;
  readonly recordStart: number;

  generateMoves(buf: Int32Array, offset: number): number;
  repeatsAfter(move: number): boolean;
  blackMoveCapturesKing(from: number, to: number): boolean;
}
