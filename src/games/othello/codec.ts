/**
 * Client face of Othello: JSON schemas and the codec between JSON states/moves and the engine
 * position. JSON is checked here once; the engine never sees strings.
 *
 * State: `{board: [8 strings of 8 chars 'B' | 'W' | '.'], turn: 'B' | 'W'}`, row 1 first, column a
 * first. Move: `{notation, row, col}` with notation 'a1'..'h8' (column letter, row number) and
 * zero-based `row` (0 = row "1") / `col` (0 = column "a"), or `{notation: "pass"}`.
 */
import { Type } from '../../vendor/typebox.js';
import { err, ok, type Result } from '../../core/result.js';
import type { FieldError, MoveJson } from '../types.js';
import { BLACK_CELL, MAILBOX, PASS_MOVE, SQUARES, WHITE_CELL, parseSquare, squareName } from './board.js';
import type { OthelloPosition } from './position.js';

export const SIDE_NAMES = ['B', 'W'] as const;
const STATE_FIELD = 'body/state';

export const START_BOARD: readonly string[] = [
  '........',
  '........',
  '........',
  '...WB...',
  '...BW...',
  '........',
  '........',
  '........',
];

export const START_STATE = { board: [...START_BOARD], turn: 'B' };

export const stateSchema = Type.Object(
  {
    board: Type.Array(
      Type.String({
        minLength: 8,
        maxLength: 8,
        pattern: '^[BW.]{8}$',
        description: "One row, column a first: 'B' black disc, 'W' white disc, '.' empty.",
        examples: ['...WB...'],
      }),
      {
        minItems: 8,
        maxItems: 8,
        description: 'The 8 rows of the board, row 1 first.',
        examples: [START_BOARD],
      },
    ),
    turn: Type.Union([Type.Literal('B'), Type.Literal('W')], {
      description: "Side to move: 'B' (black) or 'W' (white). A side with no legal move must play 'pass'.",
      examples: ['B'],
    }),
  },
  {
    additionalProperties: false,
    description: 'An Othello (Reversi) 8x8 position: the discs and the side to move.',
    examples: [START_STATE],
  },
);

export const moveSchema = Type.Object(
  {
    notation: Type.String({
      minLength: 2,
      maxLength: 4,
      pattern: '^([a-hA-H][1-8]|pass)$',
      description: "Square as column letter + row number ('d3'), or 'pass' when the side to move has no legal move.",
      examples: ['d3', 'pass'],
    }),
    row: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 7, description: 'Zero-based row: 0 is row "1". Absent for a pass.', examples: [2] }),
    ),
    col: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 7, description: 'Zero-based column: 0 is column "a". Absent for a pass.', examples: [3] }),
    ),
  },
  {
    additionalProperties: false,
    description: 'An Othello move: a square where a disc is placed, or a pass.',
    examples: [{ notation: 'd3', row: 2, col: 3 }, { notation: 'pass' }],
  },
);

function positionError(field: string, message: string): Result<never, FieldError> {
  return err({ kind: 'position', field, message });
}

/** Bitboards [black lo, black hi, white lo, white hi] and side of a JSON state, or the field that is wrong. */
export function parseState(state: unknown): Result<{ bits: Int32Array; side: number }, FieldError> {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    return positionError(STATE_FIELD, 'must be an object {board, turn}');
  }
  const record = state as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'board' && key !== 'turn') return positionError(`${STATE_FIELD}/${key}`, 'unknown property');
  }
  const board = record.board;
  if (!Array.isArray(board)) return positionError(`${STATE_FIELD}/board`, 'must be an array of 8 row strings');
  if (board.length !== 8) {
    return positionError(`${STATE_FIELD}/board`, `must have 8 rows (row 1 first), found ${board.length}`);
  }
  const bits = new Int32Array(4);
  for (let row = 0; row < 8; row++) {
    const field = `${STATE_FIELD}/board/${row}`;
    const line = board[row];
    if (typeof line !== 'string') return positionError(field, `row ${row + 1} must be a string of 8 characters`);
    if (line.length !== 8) {
      return positionError(field, `row ${row + 1} must have 8 cells (columns a-h), found ${line.length}`);
    }
    for (let col = 0; col < 8; col++) {
      const ch = line[col];
      const sq = row * 8 + col;
      const half = sq < 32 ? 0 : 1;
      const bit = 1 << (sq & 31);
      if (ch === 'B') bits[half] |= bit;
      else if (ch === 'W') bits[2 + half] |= bit;
      else if (ch !== '.') {
        return positionError(field, `cell ${squareName(sq)} is ${JSON.stringify(ch)}; expected 'B', 'W' or '.'`);
      }
    }
  }
  const turn = record.turn;
  if (turn !== 'B' && turn !== 'W') return positionError(`${STATE_FIELD}/turn`, "must be 'B' or 'W'");
  return ok({ bits, side: turn === 'B' ? 0 : 1 });
}

export function boardRows(pos: OthelloPosition): string[] {
  const rows: string[] = [];
  for (let row = 0; row < 8; row++) {
    let line = '';
    for (let col = 0; col < 8; col++) {
      const cell = pos.cells[MAILBOX[row * 8 + col]];
      line += cell === BLACK_CELL ? 'B' : cell === WHITE_CELL ? 'W' : '.';
    }
    rows.push(line);
  }
  return rows;
}

export function encodeState(pos: OthelloPosition): { board: string[]; turn: string } {
  return { board: boardRows(pos), turn: SIDE_NAMES[pos.side] };
}

export function encodeMove(move: number): MoveJson {
  if (move === PASS_MOVE) return { notation: 'pass' };
  return { notation: squareName(move), row: move >> 3, col: move & 7 };
}

function notationError(field: string, message: string): Result<never, FieldError> {
  return err({ kind: 'notation', field, message });
}

function parseNotation(text: string, field: string): Result<number, FieldError> {
  if (text.toLowerCase() === 'pass') return ok(PASS_MOVE);
  const sq = parseSquare(text);
  if (sq < 0) return notationError(field, `${JSON.stringify(text)} is not a square a1..h8 (column letter, row number) or "pass"`);
  return ok(sq);
}

/** A move object or notation string to a move code (legality is the caller's check). */
export function decodeMove(move: unknown, field: string): Result<number, FieldError> {
  if (typeof move === 'string') return parseNotation(move, field);
  if (typeof move !== 'object' || move === null || Array.isArray(move)) {
    return notationError(field, 'must be a notation string or an object {notation, row, col}');
  }
  const record = move as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'notation' && key !== 'row' && key !== 'col') return notationError(`${field}/${key}`, 'unknown property');
  }
  if (typeof record.notation !== 'string') return notationError(`${field}/notation`, 'must be a string such as "d3" or "pass"');
  const parsed = parseNotation(record.notation, `${field}/notation`);
  if (!parsed.ok) return parsed;
  const code = parsed.value;
  for (const key of ['row', 'col'] as const) {
    const value = record[key];
    if (value === undefined) continue;
    if (code === PASS_MOVE) return notationError(`${field}/${key}`, 'a pass has no row or col');
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 7) {
      return notationError(`${field}/${key}`, 'must be an integer 0..7 (zero-based)');
    }
    const expected = key === 'row' ? code >> 3 : code & 7;
    if (value !== expected) {
      return notationError(`${field}/${key}`, `${value} does not match notation ${record.notation} (${key} ${expected}, zero-based)`);
    }
  }
  return ok(code);
}

/** Squares as bitboard halves, for tests and tools. */
export function squaresToBits(squares: readonly number[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const sq of squares) {
    if (sq < 0 || sq >= SQUARES) continue;
    if (sq < 32) lo |= 1 << sq;
    else hi |= 1 << (sq - 32);
  }
  return [lo, hi];
}
