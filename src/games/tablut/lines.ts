/**
 * King lines on 9-bit row/column masks: which straight paths from a square reach an escape
 * square (every square on the way empty, no camp, no throne). Each test is O(1).
 */
import { COL, COL_WALL, ROW, ROW_WALL, SIZE } from './board.js';
import type { TablutBoardView } from './board-view.js';

const FULL = (1 << SIZE) - 1;

/** Bit per direction (up, down, left, right) of the open escape lines from `square`, with `vacated` treated as empty. */
export function openLineMask(pos: TablutBoardView, square: number, vacated: number): number {
  const r = ROW[square];
  const c = COL[square];
  let rowBlock = pos.rowOccupied[r] | ROW_WALL[r];
  let colBlock = pos.colOccupied[c] | COL_WALL[c];
  if (vacated >= 0) {
    if (ROW[vacated] === r) rowBlock &= ~(1 << COL[vacated]);
    if (COL[vacated] === c) colBlock &= ~(1 << ROW[vacated]);
  }
  let mask = 0;
  if (r > 0 && (colBlock & ((1 << r) - 1)) === 0) mask |= 1;
  if (r < SIZE - 1 && (colBlock & (FULL << (r + 1)) & FULL) === 0) mask |= 2;
  if (c > 0 && (rowBlock & ((1 << c) - 1)) === 0) mask |= 4;
  if (c < SIZE - 1 && (rowBlock & (FULL << (c + 1)) & FULL) === 0) mask |= 8;
  return mask;
}

/** Number of set bits in a 4-bit mask. */
export const BIT_COUNT_4 = new Uint8Array([0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4]);

/** Whether `square` lies on one of the king's open lines in `lines` (bits: up, down, left, right). */
export function onOpenLine(king: number, lines: number, square: number): boolean {
  const kr = ROW[king];
  const kc = COL[king];
  const r = ROW[square];
  const c = COL[square];
  if (c === kc) return (r < kr && (lines & 1) !== 0) || (r > kr && (lines & 2) !== 0);
  if (r === kr) return (c < kc && (lines & 4) !== 0) || (c > kc && (lines & 8) !== 0);
  return false;
}
