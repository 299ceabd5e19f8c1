/**
 * What evaluation.ts, moves.ts and threat-scan.ts read of a position: the members of MnkPosition
 * they use, and nothing else. They take this interface instead of the class so that they need not
 * import position.ts, which imports them (the house test counts type imports in import circles).
 * MnkPosition implements it over the same fields and methods: no wrapper, no extra call.
 */
import type { Geometry } from './geometry.js';
import type { MnkProfile } from './profile.js';

export interface MnkBoardView {
  readonly side: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly exactK: boolean;
  readonly cellCount: number;
  readonly profile: MnkProfile;
  readonly geometry: Geometry;

  readonly cells: Uint8Array;
  readonly counts: Uint8Array;
  readonly stones: number;
  readonly lineScore: Float64Array;
  readonly hintQuiet: Int32Array;
  readonly hintFlags: Int32Array;
  readonly candidates: Int32Array;
  readonly candidateCount: number;
  readonly hashLo: number;
  readonly hashHi: number;

  /** Threat-scan scratch; scanCounter is bumped by each scan (see MnkPosition). */
  readonly scanStamp: Int32Array;
  readonly scanValue: Int32Array;
  scanCounter: number;

  threatCount(side: number, level: number): number;
  threatWindow(side: number, level: number, i: number): number;
  emptyCellOf(w: number): number;
  winsAt(cell: number, side: number): boolean;
  generateMoves(buf: Int32Array, offset: number): number;
  writeRootMoves(buf: Int32Array, offset: number): number;
}
