/**
 * Decoding of a placement move given as {row, col}, {notation}, {row, col, notation} (which must
 * agree) or a bare notation string, shared by the games whose moves name one cell.
 */
import { err, type Result } from '../core/result.js';
import type { FieldError } from './types.js';

export interface GridMoveSyntax {
  /** How a notation looks, for messages: 'such as "E5"' or '"row,col"'. */
  readonly notationHint: string;
  /** The cell code of (row, col) on this board, or an error naming `field/row` or `field/col`. */
  cell(row: unknown, col: unknown, field: string): Result<number, FieldError>;
  /** The cell code a notation names, or an error naming `field`. */
  notation(text: string, field: string): Result<number, FieldError>;
}

export function decodeGridMove(move: unknown, field: string, syntax: GridMoveSyntax): Result<number, FieldError> {
  if (typeof move === 'string') return syntax.notation(move, field);
  if (typeof move !== 'object' || move === null || Array.isArray(move)) {
    return err({ kind: 'move', field, message: `a move is an object {row, col} or a notation string ${syntax.notationHint}` });
  }
  const { row, col, notation } = move as { row?: unknown; col?: unknown; notation?: unknown };
  if (row === undefined && col === undefined) {
    if (typeof notation !== 'string') return err({ kind: 'move', field, message: `a move needs row and col, or a notation ${syntax.notationHint}` });
    return syntax.notation(notation, `${field}/notation`);
  }
  if (row === undefined) return err({ kind: 'move', field: `${field}/row`, message: 'row is missing' });
  if (col === undefined) return err({ kind: 'move', field: `${field}/col`, message: 'col is missing' });
  const checked = syntax.cell(row, col, field);
  if (!checked.ok || notation === undefined) return checked;
  const fromNotation = syntax.notation(typeof notation === 'string' ? notation : '', `${field}/notation`);
  if (!fromNotation.ok) return fromNotation;
  if (fromNotation.value !== checked.value) {
    const message = `notation "${String(notation)}" does not name row ${String(row)}, col ${String(col)}`;
    return err({ kind: 'notation', field: `${field}/notation`, message });
  }
  return checked;
}
