/** Shared helpers for the Othello tests: fixture loading and position set-up from JSON boards. */
import { readFileSync } from 'node:fs';
import { definition } from '../../../src/games/othello/index.js';
import type { OthelloPosition } from '../../../src/games/othello/position.js';

/** Reads test/fixtures/othello/<name> (copied from the reference set shared/reference/othello). */
export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../fixtures/othello/${name}`, import.meta.url), 'utf8')) as T;
}

export function positionOf(board: readonly string[], turn: string): OthelloPosition {
  const decoded = definition.decodeState({ board: [...board], turn }, undefined);
  if (!decoded.ok) throw new Error(`bad test position: ${decoded.error.field}: ${decoded.error.message}`);
  return decoded.value;
}

export function startPosition(): OthelloPosition {
  const state = definition.initialState({});
  if (!state.ok) throw new Error('no initial state');
  const decoded = definition.decodeState(state.value, undefined);
  if (!decoded.ok) throw new Error('bad initial state');
  return decoded.value;
}

export function notation(move: number): string {
  return definition.encodeMove(startPosition(), move).notation;
}

export function legalMoves(pos: OthelloPosition): number[] {
  const buffer = new Int32Array(pos.maxMoves);
  const count = pos.generateMoves(buffer, 0);
  return Array.from(buffer.subarray(0, count));
}

export interface Vector {
  id: string;
  board: string[];
  turn: string;
  discs: { black: number; white: number; empty: number };
  legalMoves: string[];
  move: string;
  flipped: string[];
  after: { board: string[]; sideToMove: string | null; opponentMustPass: boolean; gameOver: boolean };
}

export interface Endgame {
  id: string;
  empties: number;
  board: string[];
  turn: string;
  exactScore: number;
  bestMoves: string[];
  moveValues: Record<string, number>;
}
