/**
 * JSON edge of Tablut: server state JSON <-> TablutPosition, moves <-> codes, and the `history`
 * replay that gives the position its repetition record. Client input never throws: every problem
 * comes back as a FieldError naming the field (Ajv style paths).
 */
import { err, ok, type Result } from '../../core/result.js';
import type { FieldError, MoveJson } from '../types.js';
import {
  BLACK,
  CAMP,
  CELL_NAMES,
  ESCAPE,
  INITIAL_BOARD,
  KING,
  NEIGHBOUR,
  OPPOSITE_DIR,
  SIDE_BLACK,
  SIDE_WHITE,
  SIZE,
  SQUARES,
  THRONE,
  THRONE_SQUARE,
  WHITE,
  makeMoveCode,
  moveFrom,
  moveName,
  moveTo,
  parseSquare,
  squareName,
} from './board.js';
import {
  MAX_BLACK_PAWNS,
  MAX_MOVES,
  MAX_WHITE_PAWNS,
  SEARCH_HEADROOM,
  STATUS_BLACK_WON,
  STATUS_DRAW,
  STATUS_ONGOING,
  STATUS_WHITE_WON,
  TablutPosition,
} from './position.js';
import { MAX_HISTORY, SIDE_NAMES, TURN_NAMES } from './schemas.js';

type Decoded<T> = Result<T, FieldError>;

/** A validated server state: cell codes, side to move and game status. */
export interface ParsedState {
  readonly cells: Uint8Array;
  readonly side: number;
  readonly status: number;
}

function positionError(field: string, message: string): { ok: false; error: FieldError } {
  return err({ kind: 'position', field, message });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates a state JSON (shape and the rules it must satisfy); `field` is its path. */
export function parseState(state: unknown, field: string): Decoded<ParsedState> {
  if (!isRecord(state)) return positionError(field, 'must be an object {board, turn}');
  for (const key of Object.keys(state)) {
    if (key !== 'board' && key !== 'turn') return positionError(`${field}/${key}`, 'unknown property');
  }
  const board = state.board;
  if (!Array.isArray(board) || board.length !== SIZE) {
    return positionError(`${field}/board`, 'must be an array of 9 rows');
  }
  const cells = new Uint8Array(SQUARES);
  let kings = 0;
  let whites = 0;
  let blacks = 0;
  let kingSquare = -1;
  for (let r = 0; r < SIZE; r++) {
    const row = board[r];
    if (!Array.isArray(row) || row.length !== SIZE) {
      return positionError(`${field}/board/${r}`, `row ${r + 1} must be an array of 9 cells`);
    }
    for (let c = 0; c < SIZE; c++) {
      const cellField = `${field}/board/${r}/${c}`;
      const s = r * SIZE + c;
      const code = CELL_NAMES.indexOf(row[c] as (typeof CELL_NAMES)[number]);
      if (code < 0) {
        return positionError(cellField, `square ${squareName(s)}: must be one of ${CELL_NAMES.join(', ')}`);
      }
      if (s === THRONE_SQUARE) {
        if (code !== KING && code !== THRONE) {
          return positionError(cellField, `square e5 is the throne: it holds the KING or is THRONE, not ${CELL_NAMES[code]}`);
        }
      } else if (code === THRONE) {
        return positionError(cellField, `square ${squareName(s)}: THRONE is only valid on e5`);
      }
      if ((code === WHITE || code === KING) && CAMP[s] === 1) {
        return positionError(cellField, `square ${squareName(s)} is a camp: a ${CELL_NAMES[code]} piece can never stand there`);
      }
      if (code === KING) {
        kings++;
        kingSquare = s;
      } else if (code === WHITE) whites++;
      else if (code === BLACK) blacks++;
      cells[s] = code;
    }
  }
  if (kings !== 1) return positionError(`${field}/board`, `there must be exactly one KING (found ${kings})`);
  if (whites > MAX_WHITE_PAWNS) return positionError(`${field}/board`, `at most 8 WHITE pawns (found ${whites})`);
  if (blacks > MAX_BLACK_PAWNS) return positionError(`${field}/board`, `at most 16 BLACK pawns (found ${blacks})`);

  const turn = TURN_NAMES.indexOf(state.turn as (typeof TURN_NAMES)[number]);
  if (turn < 0) return positionError(`${field}/turn`, `must be one of ${TURN_NAMES.join(', ')}`);
  const kingOnEdge = ESCAPE[kingSquare] === 1;
  let side = SIDE_WHITE;
  let status = STATUS_ONGOING;
  switch (TURN_NAMES[turn]) {
    case 'WHITE':
    case 'BLACK':
      if (kingOnEdge) {
        return positionError(`${field}/turn`, `the king is on the edge (${squareName(kingSquare)}): the game is over, turn must be WHITEWIN`);
      }
      side = turn === 0 ? SIDE_WHITE : SIDE_BLACK;
      break;
    case 'WHITEWIN':
      if (!kingOnEdge) return positionError(`${field}/turn`, `WHITEWIN but the king (${squareName(kingSquare)}) is not on an edge square`);
      side = SIDE_BLACK;
      status = STATUS_WHITE_WON;
      break;
    case 'BLACKWIN':
      if (!kingLooksCaptured(cells, kingSquare)) {
        return positionError(`${field}/turn`, `BLACKWIN but the king (${squareName(kingSquare)}) is not captured`);
      }
      side = SIDE_WHITE;
      status = STATUS_BLACK_WON;
      break;
    default:
      status = STATUS_DRAW;
  }
  return ok({ cells, side, status });
}

/** Some black neighbour of the king completes a capture as if it had just moved there. */
function kingLooksCaptured(cells: Uint8Array, kingSquare: number): boolean {
  const probe = new TablutPosition(1);
  probe.load(cells, SIDE_WHITE, STATUS_ONGOING);
  for (let d = 0; d < 4; d++) {
    const n = NEIGHBOUR[kingSquare * 4 + d];
    if (n >= 0 && cells[n] === BLACK && probe.kingCapturedFrom(n, OPPOSITE_DIR[d])) return true;
  }
  return false;
}

function sameBoard(a: Uint8Array, b: Uint8Array): number {
  for (let s = 0; s < SQUARES; s++) if (a[s] !== b[s]) return s;
  return -1;
}

function isInitial(parsed: ParsedState): boolean {
  return parsed.side === SIDE_WHITE && parsed.status === STATUS_ONGOING && sameBoard(parsed.cells, INITIAL_BOARD) < 0;
}

/** Turn name of a position (the side to move, or the result of a finished game). */
export function turnName(pos: TablutPosition): string {
  switch (pos.status) {
    case STATUS_WHITE_WON:
      return 'WHITEWIN';
    case STATUS_BLACK_WON:
      return 'BLACKWIN';
    case STATUS_DRAW:
      return 'DRAW';
    default:
      return SIDE_NAMES[pos.side];
  }
}

export function encodeState(pos: TablutPosition): { board: string[][]; turn: string } {
  const board: string[][] = [];
  for (let r = 0; r < SIZE; r++) {
    const row: string[] = [];
    for (let c = 0; c < SIZE; c++) row.push(CELL_NAMES[pos.board[r * SIZE + c]]);
    board.push(row);
  }
  return { board, turn: turnName(pos) };
}

export function encodeMove(pos: TablutPosition, move: number): MoveJson {
  return {
    from: squareName(moveFrom(move)),
    to: squareName(moveTo(move)),
    turn: SIDE_NAMES[pos.side],
    notation: moveName(move),
  };
}

function parseNotation(text: string, field: string): Decoded<number> {
  const dash = text.indexOf('-');
  const from = dash === 2 ? parseSquare(text.slice(0, 2)) : -1;
  const to = dash === 2 ? parseSquare(text.slice(3)) : -1;
  if (text.length !== 5 || from < 0 || to < 0) {
    return err({ kind: 'notation', field, message: `"${text.slice(0, 20)}" is not a move like "e4-e7"` });
  }
  return ok(makeMoveCode(from, to));
}

/** A move object or notation string to a move code (legality is the caller's business). */
export function decodeMove(pos: TablutPosition, move: unknown, field: string): Decoded<number> {
  if (typeof move === 'string') return parseNotation(move, field);
  if (!isRecord(move)) return err({ kind: 'move', field, message: 'must be a notation string "e4-e7" or a move object' });
  for (const key of Object.keys(move)) {
    if (key !== 'from' && key !== 'to' && key !== 'turn' && key !== 'notation') {
      return err({ kind: 'move', field: `${field}/${key}`, message: 'unknown property' });
    }
  }
  let code = -1;
  if (move.from !== undefined || move.to !== undefined) {
    const from = typeof move.from === 'string' ? parseSquare(move.from) : -1;
    if (from < 0) return err({ kind: 'move', field: `${field}/from`, message: 'must be a square like "e4"' });
    const to = typeof move.to === 'string' ? parseSquare(move.to) : -1;
    if (to < 0) return err({ kind: 'move', field: `${field}/to`, message: 'must be a square like "e4"' });
    code = makeMoveCode(from, to);
  }
  if (move.notation !== undefined) {
    if (typeof move.notation !== 'string') {
      return err({ kind: 'notation', field: `${field}/notation`, message: 'must be a string like "e4-e7"' });
    }
    const parsed = parseNotation(move.notation, `${field}/notation`);
    if (!parsed.ok) return parsed;
    if (code >= 0 && parsed.value !== code) {
      return err({ kind: 'move', field: `${field}/notation`, message: `"${move.notation}" disagrees with from/to (${moveName(code)})` });
    }
    code = parsed.value;
  }
  if (code < 0) return err({ kind: 'move', field, message: 'needs from and to, or notation' });
  if (move.turn !== undefined && move.turn !== SIDE_NAMES[pos.side]) {
    return err({ kind: 'move', field: `${field}/turn`, message: `it is ${turnName(pos)}'s turn, not ${String(move.turn).slice(0, 20)}` });
  }
  return ok(code);
}

const scratchMoves = new Int32Array(MAX_MOVES);

/** Whether `move` is among the legal moves of a position that is not finished. */
export function isLegal(pos: TablutPosition, move: number): boolean {
  if (pos.status !== STATUS_ONGOING) return false;
  const count = pos.generateMoves(scratchMoves, 0);
  for (let i = 0; i < count; i++) if (scratchMoves[i] === move) return true;
  return false;
}

export function newPosition(parsed: ParsedState, extraMoves: number): TablutPosition {
  const pos = new TablutPosition(extraMoves + SEARCH_HEADROOM);
  pos.load(parsed.cells, parsed.side, parsed.status);
  return pos;
}

function historyError(field: string, message: string): { ok: false; error: FieldError } {
  return err({ kind: 'history', field, message });
}

/**
 * The position for a state and its optional history. Without history, the state itself is the only
 * record entry (it was reached by a move), unless it is the initial position.
 */
export function decodeState(state: unknown, history: readonly unknown[] | undefined): Decoded<TablutPosition> {
  const parsed = parseState(state, 'body/state');
  if (!parsed.ok) return parsed;
  if (history === undefined || history.length === 0) {
    const pos = newPosition(parsed.value, 0);
    if (!isInitial(parsed.value)) pos.recordCurrent();
    return ok(pos);
  }
  if (!Array.isArray(history)) return historyError('body/history', 'must be an array');
  if (history.length > MAX_HISTORY) return historyError('body/history', `at most ${MAX_HISTORY} items`);
  const statesGiven = isRecord(history[0]) && 'board' in history[0];
  for (let i = 1; i < history.length; i++) {
    const isState = isRecord(history[i]) && 'board' in (history[i] as Record<string, unknown>);
    if (isState !== statesGiven) {
      return historyError(`body/history/${i}`, 'all history items must be of one kind: states, or moves');
    }
  }
  return statesGiven ? replayStates(parsed.value, history) : replayMoves(parsed.value, history);
}

/** Replays moves from the initial position and checks they lead to the request state. */
function replayMoves(target: ParsedState, history: readonly unknown[]): Decoded<TablutPosition> {
  const pos = newPosition({ cells: INITIAL_BOARD, side: SIDE_WHITE, status: STATUS_ONGOING }, history.length);
  for (let i = 0; i < history.length; i++) {
    const field = `body/history/${i}`;
    if (pos.status !== STATUS_ONGOING) {
      return historyError(field, `the game was already over (${turnName(pos)}) after body/history/${i - 1}`);
    }
    const decoded = decodeMove(pos, history[i], field);
    if (!decoded.ok) return err({ ...decoded.error, kind: 'history' });
    if (!isLegal(pos, decoded.value)) {
      return historyError(field, `${moveName(decoded.value)} is not a legal move for ${turnName(pos)} here`);
    }
    pos.makeMove(decoded.value);
  }
  const mismatch = compareWithTarget(pos, target);
  if (mismatch !== null) return historyError('body/history', `the moves lead to a position that differs from body/state: ${mismatch}`);
  return ok(adoptTargetStatus(pos, target));
}

/** Walks consecutive states (each must follow from the previous by one legal move). */
function replayStates(target: ParsedState, history: readonly unknown[]): Decoded<TablutPosition> {
  let items = history;
  const last = parseState(history[history.length - 1], `body/history/${history.length - 1}`);
  if (last.ok && sameBoard(last.value.cells, target.cells) < 0 && last.value.side === target.side && last.value.status === target.status) {
    items = history.slice(0, -1);
  }
  if (items.length === 0) return decodeWithoutHistory(target);
  const first = parseState(items[0], 'body/history/0');
  if (!first.ok) return err({ ...first.error, kind: 'history' });
  const pos = newPosition(first.value, items.length);
  if (!isInitial(first.value)) pos.recordCurrent();
  for (let i = 1; i <= items.length; i++) {
    const field = i < items.length ? `body/history/${i}` : 'body/state';
    let next: ParsedState;
    if (i < items.length) {
      const parsed = parseState(items[i], field);
      if (!parsed.ok) return err({ ...parsed.error, kind: 'history' });
      next = parsed.value;
    } else {
      next = target;
    }
    const previous = i === 1 ? 'body/history/0' : `body/history/${i - 1}`;
    if (pos.status !== STATUS_ONGOING) {
      return historyError(i < items.length ? field : 'body/history', `the game was already over (${turnName(pos)}) at ${previous}`);
    }
    const move = findMoveBetween(pos, next);
    if (move < 0) {
      return historyError(i < items.length ? field : 'body/history', `no legal move leads from ${previous} to ${field}`);
    }
    pos.makeMove(move);
  }
  return ok(adoptTargetStatus(pos, target));
}

function decodeWithoutHistory(target: ParsedState): Decoded<TablutPosition> {
  const pos = newPosition(target, 0);
  if (!isInitial(target)) pos.recordCurrent();
  return ok(pos);
}

/** The legal move that turns pos into the given state, or -1. */
function findMoveBetween(pos: TablutPosition, next: ParsedState): number {
  const moves = new Int32Array(MAX_MOVES);
  const count = pos.generateMoves(moves, 0);
  for (let i = 0; i < count; i++) {
    const move = moves[i];
    pos.makeMove(move);
    const matches = compareWithTarget(pos, next) === null;
    pos.unmakeMove(move);
    if (matches) return move;
  }
  return -1;
}

/** null when pos shows the target's board and side (or result), else what differs. */
function compareWithTarget(pos: TablutPosition, target: ParsedState): string | null {
  const diff = sameBoard(pos.board, target.cells);
  if (diff >= 0) {
    return `square ${squareName(diff)} is ${CELL_NAMES[pos.board[diff]]} after the moves but ${CELL_NAMES[target.cells[diff]]} in the state`;
  }
  if (target.status === STATUS_ONGOING) {
    if (pos.side !== target.side) return `${SIDE_NAMES[pos.side]} is to move after the moves, not ${SIDE_NAMES[target.side]}`;
    if (pos.status === STATUS_WHITE_WON || pos.status === STATUS_BLACK_WON) return `the game ended with ${turnName(pos)}`;
    // A repetition the state does not show: the record proves the draw, keep it.
    return null;
  }
  if (target.status !== STATUS_DRAW && pos.status !== target.status) return `the result is ${turnName(pos)}, not ${TURN_NAMES[target.status + 1]}`;
  return null;
}

/** A finished state decides the result (a DRAW may come from a record longer than the history). */
function adoptTargetStatus(pos: TablutPosition, target: ParsedState): TablutPosition {
  if (target.status === STATUS_DRAW) pos.status = STATUS_DRAW;
  return pos;
}
