/**
 * The search's move list (generateSearchMoves). generateMoves lists every empty cell (the rules);
 * the search gets a narrower list:
 *  - the solver's root list when it left one (moves not proven to lose, solver.ts);
 *  - a winning cell when the side to move has a K-1 window (one move is enough);
 *  - else the cells blocking the opponent's K-1 windows (any other move loses at once);
 *  - else, when the opponent has a cell making two K-1 threats at once, the cells of the K-2 and
 *    longer windows of both sides (blocks and counter-fours; anything else loses, threat-scan.ts);
 *  - else, on small boards or near the end, every empty cell that still lies in a live window
 *    (a cell in dead windows only is worth no more than a pass, and a stone never hurts its owner);
 *  - else the candidate cells near existing stones (the profile's neighbourhood), or the centre on
 *    an empty board.
 * Under exactK (only exactly K wins) a K-1 window is a threat only if filling it makes no overline:
 * wins and blocks are verified with winsAt; the double-threat zone and the live-cell rule assume
 * K-or-more (and that a stone never hurts its owner, false when it can make an overline), so they
 * are skipped, and small boards get every empty cell.
 */
import { EMPTY, LEVEL_FOUR } from './cells.js';
import type { MnkBoardView } from './board-view.js';
import { doubleThreatCell, writeThreatZone } from './threat-scan.js';

/** Below this many empty cells (or on boards this small) the search sees every useful cell. */
export const FULL_WIDTH_EMPTIES = 20;
export const FULL_WIDTH_CELLS = 30;

export function generateSearchCandidates(pos: MnkBoardView, buf: Int32Array, offset: number): number {
  const s = pos.side;
  const solverMoves = pos.writeRootMoves(buf, offset);
  if (solverMoves > 0) return solverMoves;
  if (pos.profile.forcedMoves) {
    if (pos.k === 1) {
      buf[offset] = firstEmpty(pos);
      return 1;
    }
    const win = winningCell(pos, s);
    if (win >= 0) {
      buf[offset] = win;
      return 1;
    }
    const blocks = writeBlockingCells(pos, 1 - s, buf, offset);
    if (blocks > 0) return blocks;
    if (pos.exactK) {
      const empties = pos.cellCount - pos.stones;
      if (empties <= FULL_WIDTH_EMPTIES || pos.cellCount <= FULL_WIDTH_CELLS) return pos.generateMoves(buf, offset);
      return neighbourhoodMoves(pos, buf, offset);
    }
    if (doubleThreatCell(pos, 1 - s) >= 0) return writeThreatZone(pos, buf, offset);
    const empties = pos.cellCount - pos.stones;
    if (empties <= FULL_WIDTH_EMPTIES || pos.cellCount <= FULL_WIDTH_CELLS) return writeLiveCells(pos, buf, offset);
  }
  return neighbourhoodMoves(pos, buf, offset);
}

/** The candidate cells near stones, or the centre on an empty board. */
function neighbourhoodMoves(pos: MnkBoardView, buf: Int32Array, offset: number): number {
  if (pos.stones === 0) {
    buf[offset] = centreCell(pos);
    return 1;
  }
  const count = pos.candidateCount;
  if (count === 0) {
    // Only possible when the neighbourhood reaches no empty cell: fall back to the rules.
    return pos.generateMoves(buf, offset);
  }
  const candidates = pos.candidates;
  for (let i = 0; i < count; i++) buf[offset + i] = candidates[i];
  return count;
}

/** A cell where `side` wins at once (the empty cell of a K-1 window; verified under exactK), or -1. */
export function winningCell(pos: MnkBoardView, side: number): number {
  const fours = pos.threatCount(side, LEVEL_FOUR);
  for (let i = 0; i < fours; i++) {
    const cell = pos.emptyCellOf(pos.threatWindow(side, LEVEL_FOUR, i));
    if (!pos.exactK || pos.winsAt(cell, side)) return cell;
  }
  return -1;
}

/**
 * Distinct empty cells where `side` would win at once (completing one of its K-1 windows; under
 * exactK only those making a line of exactly K): the cells the other side must occupy.
 */
export function writeBlockingCells(pos: MnkBoardView, side: number, buf: Int32Array, offset: number): number {
  const fours = pos.threatCount(side, LEVEL_FOUR);
  let count = 0;
  for (let i = 0; i < fours; i++) {
    const cell = pos.emptyCellOf(pos.threatWindow(side, LEVEL_FOUR, i));
    if (pos.exactK && !pos.winsAt(cell, side)) continue;
    let seen = false;
    for (let j = 0; j < count; j++) {
      if (buf[offset + j] === cell) {
        seen = true;
        break;
      }
    }
    if (!seen) buf[offset + count++] = cell;
  }
  return count;
}

/** Empty cells lying in at least one window that a side can still complete (at least one cell). */
export function writeLiveCells(pos: MnkBoardView, buf: Int32Array, offset: number): number {
  const cells = pos.cells;
  let count = 0;
  for (let cell = 0, end = pos.cellCount; cell < end; cell++) {
    if (cells[cell] === EMPTY && isLiveCell(pos, cell)) buf[offset + count++] = cell;
  }
  if (count === 0) {
    // Nobody can win any more: every move leads to the same draw.
    buf[offset] = firstEmpty(pos);
    count = 1;
  }
  return count;
}

export function isLiveCell(pos: MnkBoardView, cell: number): boolean {
  const g = pos.geometry;
  const counts = pos.counts;
  for (let i = g.cellWindowStart[cell], end = g.cellWindowStart[cell + 1]; i < end; i++) {
    const w = g.cellWindows[i];
    if (counts[2 * w] === 0 || counts[2 * w + 1] === 0) return true;
  }
  return false;
}

export function firstEmpty(pos: MnkBoardView): number {
  const cells = pos.cells;
  for (let cell = 0, end = pos.cellCount; cell < end; cell++) if (cells[cell] === EMPTY) return cell;
  return -1;
}

export function centreCell(pos: MnkBoardView): number {
  return ((pos.m - 1) >> 1) * pos.n + ((pos.n - 1) >> 1);
}
