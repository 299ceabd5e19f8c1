/**
 * Cheap threat detection on the maintained K-2 windows ("threes"):
 *  - doubleThreatCell: a cell where `side` would make two K-1 windows with different completion
 *    cells (an open four or a double four): one move from an unstoppable threat;
 *  - writeThreatZone: the cells of every open window holding K-2 or more stones of one side.
 *    When the opponent has a double-threat cell and the mover no K-1 window, only moves in this
 *    zone can matter: any other stone touches none of the lines that decide the next three plies,
 *    so it is a pass, and against a pass the opponent wins.
 */
import { EMPTY, LEVEL_FOUR, LEVEL_THREE } from './cells.js';
import type { MnkBoardView } from './board-view.js';

/** Playing c makes a K-1 window completed at e: a second, different e makes c a double threat. */
export function doubleThreatCell(pos: MnkBoardView, side: number): number {
  const threes = pos.threatCount(side, LEVEL_THREE);
  if (threes < 2) return -1;
  const g = pos.geometry;
  const cells = pos.cells;
  const stamp = pos.scanStamp;
  const value = pos.scanValue;
  const mark = ++pos.scanCounter;
  const k = pos.k;
  for (let j = 0; j < threes; j++) {
    const w = pos.threatWindow(side, LEVEL_THREE, j);
    const step = g.windowStep[w];
    let first = -1;
    let second = -1;
    for (let i = 0, cell = g.windowStart[w]; i < k; i++, cell += step) {
      if (cells[cell] !== EMPTY) continue;
      if (first < 0) first = cell;
      else second = cell;
    }
    if (stamp[first] !== mark) {
      stamp[first] = mark;
      value[first] = second;
    } else if (value[first] !== second) {
      return first;
    }
    if (stamp[second] !== mark) {
      stamp[second] = mark;
      value[second] = first;
    } else if (value[second] !== first) {
      return second;
    }
  }
  return -1;
}

/**
 * Appends to buf (from `at`) the empty cells of window w not yet stamped with `mark`, stamping them;
 * returns the new end. The shared step of every "cells of these windows, deduplicated" scan.
 */
export function appendWindowEmpties(pos: MnkBoardView, w: number, stamp: Int32Array, mark: number, buf: Int32Array, at: number): number {
  const g = pos.geometry;
  const cells = pos.cells;
  const step = g.windowStep[w];
  for (let i = 0, cell = g.windowStart[w], k = pos.k; i < k; i++, cell += step) {
    if (cells[cell] === EMPTY && stamp[cell] !== mark) {
      stamp[cell] = mark;
      buf[at++] = cell;
    }
  }
  return at;
}

/** Empty cells of both sides' windows at threat level <= maxLevel (LEVEL_FOUR first), deduplicated by `mark`. */
export function writeThreatCells(pos: MnkBoardView, maxLevel: number, stamp: Int32Array, mark: number, buf: Int32Array, offset: number): number {
  let end = offset;
  for (let side = 0; side < 2; side++) {
    for (let level = LEVEL_FOUR; level <= maxLevel; level++) {
      for (let j = 0, size = pos.threatCount(side, level); j < size; j++) {
        end = appendWindowEmpties(pos, pos.threatWindow(side, level, j), stamp, mark, buf, end);
      }
    }
  }
  return end - offset;
}

/** Empty cells of both sides' open windows with K-2 or more stones (deduplicated). */
export function writeThreatZone(pos: MnkBoardView, buf: Int32Array, offset: number): number {
  return writeThreatCells(pos, LEVEL_THREE, pos.scanStamp, ++pos.scanCounter, buf, offset);
}
