/**
 * Client face of Hadron: TypeBox schemas and the JSON <-> engine codec. The HTTP layer checks the
 * schemas first; everything they cannot express (equal row lengths, counts against the turn,
 * reachability) is checked here, and each error names the offending field in Ajv's style.
 *
 * Notation (the tournament's): row letter 'A' + row, then column number col + 1; "E5" = row 4, col 4.
 */
import { Type } from '../../vendor/typebox.js';
import { type Result, err, ok } from '../../core/result.js';
import type { FieldError, MoveJson } from '../types.js';
import { BLACK, EMPTY, MAX_SIDE, MIN_SIDE, WHITE, geometryFor, notationOf } from './geometry.js';
import { HadronPosition, PROFILE_DEFAULT } from './position.js';
import { checkReachable } from './reachability.js';
import { decodeGridMove } from '../grid-move.js';

const STATE_FIELD = 'body/state';
const SIDE_CHARS = ['W', 'B'] as const;
const DEFAULT_SIDE = 9;

const exampleBoard = ['.........', '.........', '.........', '.........', '....W....', '.........', '.........', '.........', '.........'];

export const stateSchema = Type.Object(
  {
    board: Type.Array(
      Type.String({
        minLength: MIN_SIDE,
        maxLength: MAX_SIDE,
        pattern: '^[WB.]+$',
        description: "One row, column 0 first: 'W' (White), 'B' (Black) or '.' (empty). All rows have the same length (2 to 9).",
        examples: ['....W....'],
      }),
      {
        minItems: MIN_SIDE,
        maxItems: MAX_SIDE,
        description: 'The rows, row 0 (notation row A) first; the tournament board is 9 x 9, any R x C from 2 x 2 to 9 x 9 is accepted.',
        examples: [exampleBoard],
      },
    ),
    turn: Type.Union([Type.Literal('W'), Type.Literal('B')], {
      description: 'Side to move. White moves first, so it is White to move iff both colours have as many pieces.',
      examples: ['B'],
    }),
  },
  {
    additionalProperties: false,
    description: 'A Hadron position: the board rows and the side to move.',
    examples: [{ board: exampleBoard, turn: 'B' }],
  },
);

export const moveSchema = Type.Object(
  {
    row: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SIDE - 1, description: 'Row, 0-based (row 0 = notation row A).', examples: [4] })),
    col: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SIDE - 1, description: 'Column, 0-based (col 0 = notation column 1).', examples: [4] })),
    notation: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 2,
        pattern: '^[A-Ia-i][1-9]$',
        description: 'Row letter then column number, e.g. "E5" = row 4, col 4.',
        examples: ['E5'],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'A placement (the colour is the mover\'s): {row, col} (notation optional), or {notation} alone.',
    examples: [{ row: 4, col: 4, notation: 'E5' }, { notation: 'A1' }],
  },
);

export const initialStateQuerySchema = Type.Object(
  {
    rows: Type.Optional(Type.Integer({ minimum: MIN_SIDE, maximum: MAX_SIDE, description: 'Rows; default 9.', examples: [9] })),
    cols: Type.Optional(Type.Integer({ minimum: MIN_SIDE, maximum: MAX_SIDE, description: 'Columns; default = rows.', examples: [9] })),
  },
  {
    additionalProperties: false,
    description: 'Board shape of the new game: the tournament board is 9 x 9; small boards (e.g. 5 x 5) can be solved exactly.',
    examples: [{ rows: 9, cols: 9 }, { rows: 5 }],
  },
);

export interface HadronStateJson {
  board: string[];
  turn: 'W' | 'B';
}

export function initialState(query: Record<string, unknown>): Result<HadronStateJson, FieldError> {
  const rows = query.rows === undefined ? DEFAULT_SIDE : query.rows;
  const cols = query.cols === undefined ? rows : query.cols;
  for (const [name, value] of [['rows', rows], ['cols', cols]] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_SIDE || value > MAX_SIDE) {
      return err({ kind: 'params', field: `querystring/${name}`, message: `${name} must be an integer from ${MIN_SIDE} to ${MAX_SIDE}` });
    }
  }
  return ok({ board: Array.from({ length: rows as number }, () => '.'.repeat(cols as number)), turn: 'W' });
}

function positionError(field: string, message: string): Result<never, FieldError> {
  return err({ kind: 'position', field, message });
}

export function decodeState(state: unknown, profile = PROFILE_DEFAULT): Result<HadronPosition, FieldError> {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return positionError(STATE_FIELD, 'state must be an object {board, turn}');
  const s = state as Partial<Record<string, unknown>>;
  const rowsField = `${STATE_FIELD}/board`;
  const board = s.board;
  if (!Array.isArray(board)) return positionError(rowsField, 'board must be an array of row strings');
  if (board.length < MIN_SIDE || board.length > MAX_SIDE) {
    return positionError(rowsField, `board has ${board.length} rows; boards have ${MIN_SIDE} to ${MAX_SIDE} rows`);
  }
  const rows = board.length;
  const first: unknown = board[0];
  const cols = typeof first === 'string' ? first.length : 0;
  const cells = new Uint8Array(rows * cols);
  const counts = [0, 0];
  for (let r = 0; r < rows; r++) {
    const row: unknown = board[r];
    const field = `${rowsField}/${r}`;
    if (typeof row !== 'string') return positionError(field, `row ${r} must be a string`);
    if (row.length < MIN_SIDE || row.length > MAX_SIDE) {
      return positionError(field, `row ${r} has ${row.length} cells; rows have ${MIN_SIDE} to ${MAX_SIDE} cells`);
    }
    if (row.length !== cols) return positionError(field, `row ${r} has ${row.length} cells but row 0 has ${cols}`);
    for (let c = 0; c < cols; c++) {
      const ch = row[c];
      const piece = ch === '.' ? EMPTY : ch === 'W' ? WHITE : ch === 'B' ? BLACK : -1;
      if (piece < 0) return positionError(field, `row ${r}, column ${c} (${notationOf(cols, r * cols + c)}): '${ch}' is not 'W', 'B' or '.'`);
      cells[r * cols + c] = piece;
      if (piece !== EMPTY) counts[piece - 1]++;
    }
  }
  const turn = s.turn;
  if (turn !== 'W' && turn !== 'B') return positionError(`${STATE_FIELD}/turn`, "turn must be 'W' or 'B'");
  const [whites, blacks] = counts;
  const tally = `White has ${whites} pieces and Black ${blacks}`;
  if (whites !== blacks && whites !== blacks + 1) {
    return positionError(rowsField, `${tally}: White moves first and the colours alternate, so White has as many pieces as Black or one more`);
  }
  const toMove = whites === blacks ? 'W' : 'B';
  if (turn !== toMove) return positionError(`${STATE_FIELD}/turn`, `${tally}, so it is ${toMove}'s turn, not ${turn}'s`);

  const reach = checkReachable(geometryFor(rows, cols), cells);
  if (reach.kind === 'impossible') {
    if (reach.cells.length === 0) {
      return positionError(rowsField, 'no order of legal placements (alternating W and B, each on a balanced cell) leads to this board');
    }
    const names = reach.cells.map((cell) => notationOf(cols, cell)).join(', ');
    return positionError(
      `${rowsField}/${Math.floor(reach.cells[0] / cols)}`,
      `the pieces at ${names} cannot all have been placed: in every order, some piece would have gone on a cell with unbalanced neighbours`,
    );
  }
  return ok(new HadronPosition(rows, cols, cells, profile));
}

export function encodeState(pos: HadronPosition): HadronStateJson {
  const board: string[] = [];
  for (let r = 0; r < pos.rows; r++) {
    let row = '';
    for (let c = 0; c < pos.cols; c++) {
      const piece = pos.cells[r * pos.cols + c];
      row += piece === EMPTY ? '.' : SIDE_CHARS[piece - 1];
    }
    board.push(row);
  }
  return { board, turn: SIDE_CHARS[pos.side] };
}

export function encodeMove(pos: HadronPosition, move: number): MoveJson {
  const row = Math.floor(move / pos.cols);
  const col = move % pos.cols;
  return { row, col, notation: notationOf(pos.cols, move) };
}

const NOTATION = /^([A-Ia-i])([1-9])$/;

export function decodeMove(pos: HadronPosition, move: unknown, field: string): Result<number, FieldError> {
  return decodeGridMove(move, field, {
    notationHint: 'such as "E5"',
    cell: (row, col, cellField) => checkCell(pos, row, col, cellField, false),
    notation: (text, notationField) => parseNotation(pos, text, notationField),
  });
}

function parseNotation(pos: HadronPosition, text: string, field: string): Result<number, FieldError> {
  const match = NOTATION.exec(text);
  if (match === null) return err({ kind: 'notation', field, message: `"${text}" is not a row letter and a column number such as "E5"` });
  return checkCell(pos, match[1].toUpperCase().charCodeAt(0) - 65, Number(match[2]) - 1, field, true);
}

function checkCell(pos: HadronPosition, row: unknown, col: unknown, field: string, inNotation: boolean): Result<number, FieldError> {
  const kind = inNotation ? 'notation' : 'move';
  const rowField = inNotation ? field : `${field}/row`;
  const colField = inNotation ? field : `${field}/col`;
  if (typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= pos.rows) {
    const lastRow = String.fromCharCode(64 + pos.rows);
    return err({ kind, field: rowField, message: `row ${String(row)} is outside the ${pos.rows} x ${pos.cols} board (rows A to ${lastRow})` });
  }
  if (typeof col !== 'number' || !Number.isInteger(col) || col < 0 || col >= pos.cols) {
    return err({ kind, field: colField, message: `column ${String(col)} is outside the ${pos.rows} x ${pos.cols} board (columns 1 to ${pos.cols})` });
  }
  const cell = row * pos.cols + col;
  const piece = pos.cells[cell];
  if (piece !== EMPTY) {
    return err({ kind: 'move', field, message: `${notationOf(pos.cols, cell)} (row ${row}, col ${col}) is already taken by ${SIDE_CHARS[piece - 1]}` });
  }
  if (!pos.isPlayable(cell)) {
    const b = pos.balance[cell];
    return err({
      kind: 'move',
      field,
      message:
        `${notationOf(pos.cols, cell)} is not playable: its neighbours hold ${Math.abs(b)} more ${b > 0 ? 'White' : 'Black'} ` +
        `piece${Math.abs(b) === 1 ? '' : 's'} than ${b > 0 ? 'Black' : 'White'}`,
    });
  }
  return ok(cell);
}
