/**
 * Compact Int32Array form of a position, for crossing to a worker:
 *   [0] side to move, [1] status, [2] n = live repetition-record entries,
 *   [3 .. 84) cell codes, then n (hashLo, hashHi) pairs (the record since the last capture).
 */
import { SQUARES } from './board.js';
import { SEARCH_HEADROOM, TablutPosition } from './position.js';

const HEADER = 3;

export function snapshotPosition(pos: TablutPosition): Int32Array {
  const scratch = new Int32Array(2 * (pos.recordCount - pos.recordStart));
  const n = pos.recordEntries(scratch, 0);
  const out = new Int32Array(HEADER + SQUARES + 2 * n);
  out[0] = pos.side;
  out[1] = pos.status;
  out[2] = n;
  for (let s = 0; s < SQUARES; s++) out[HEADER + s] = pos.board[s];
  out.set(scratch.subarray(0, 2 * n), HEADER + SQUARES);
  return out;
}

export function restorePosition(snapshot: Int32Array): TablutPosition {
  const n = snapshot[2];
  const pos = new TablutPosition(n + SEARCH_HEADROOM);
  pos.load(snapshot.subarray(HEADER, HEADER + SQUARES), snapshot[0], snapshot[1]);
  pos.loadRecord(snapshot, HEADER + SQUARES, n, 0);
  return pos;
}
