/**
 * TypeBox schemas of the Tablut client face: the Tablut Challenge server's state JSON verbatim,
 * its action JSON (plus a notation), and the accepted forms of a `history` item.
 */
import { Type } from '../../vendor/typebox.js';
import { CELL_NAMES } from './board.js';

export const TURN_NAMES = ['WHITE', 'BLACK', 'WHITEWIN', 'BLACKWIN', 'DRAW'] as const;
export const SIDE_NAMES = ['WHITE', 'BLACK'] as const;

const E = 'EMPTY';
const W = 'WHITE';
const B = 'BLACK';
export const INITIAL_STATE_JSON = {
  board: [
    [E, E, E, B, B, B, E, E, E],
    [E, E, E, E, B, E, E, E, E],
    [E, E, E, E, W, E, E, E, E],
    [B, E, E, E, W, E, E, E, B],
    [B, B, W, W, 'KING', W, W, B, B],
    [B, E, E, E, W, E, E, E, B],
    [E, E, E, E, W, E, E, E, E],
    [E, E, E, E, B, E, E, E, E],
    [E, E, E, B, B, B, E, E, E],
  ],
  turn: 'WHITE',
};

const SQUARE_PATTERN = '^[a-iA-I][1-9]$';
const NOTATION_PATTERN = '^[a-iA-I][1-9]-[a-iA-I][1-9]$';

const cellSchema = Type.Enum([...CELL_NAMES], {
  description: 'One square: EMPTY, WHITE (pawn), BLACK (pawn), KING, or THRONE (e5 once the king has left it).',
  examples: ['EMPTY'],
});

const rowSchema = Type.Array(cellSchema, {
  minItems: 9,
  maxItems: 9,
  description: 'One board row, columns a..i.',
  examples: [INITIAL_STATE_JSON.board[0]],
});

export const stateSchema = Type.Object(
  {
    board: Type.Array(rowSchema, {
      minItems: 9,
      maxItems: 9,
      description: 'board[row][col]: the first row is row 1 of the notation (e1 = board[0][4]), columns a..i.',
      examples: [INITIAL_STATE_JSON.board],
    }),
    turn: Type.Enum([...TURN_NAMES], {
      description: 'Side to move (WHITE or BLACK), or the result of a finished game (WHITEWIN, BLACKWIN, DRAW).',
      examples: ['WHITE'],
    }),
  },
  {
    additionalProperties: false,
    description: 'A Tablut Challenge server state, verbatim (Ashton rules).',
    examples: [INITIAL_STATE_JSON],
  },
);

const squareSchema = Type.String({
  pattern: SQUARE_PATTERN,
  minLength: 2,
  maxLength: 2,
  description: 'A square: column letter a..i then row number 1..9.',
  examples: ['e4'],
});

export const notationSchema = Type.String({
  pattern: NOTATION_PATTERN,
  minLength: 5,
  maxLength: 5,
  description: 'A move as from-to, e.g. "e4-e7".',
  examples: ['e3-c3'],
});

const fullMoveSchema = Type.Object(
  {
    from: squareSchema,
    to: squareSchema,
    turn: Type.Optional(
      Type.Enum([...SIDE_NAMES], { description: 'The side making the move.', examples: ['WHITE'] }),
    ),
    notation: Type.Optional(notationSchema),
  },
  {
    additionalProperties: false,
    description: 'A Tablut Challenge action {from, to, turn}, optionally with its notation.',
    examples: [{ from: 'e3', to: 'c3', turn: 'WHITE', notation: 'e3-c3' }],
  },
);

const notationOnlyMoveSchema = Type.Object(
  { notation: notationSchema },
  {
    additionalProperties: false,
    description: 'A move given by its notation only.',
    examples: [{ notation: 'e3-c3' }],
  },
);

export const moveSchema = Type.Union([fullMoveSchema, notationOnlyMoveSchema], {
  description:
    'A move: the Challenge action {from, to, turn} (the service adds notation, so its answer can be forwarded to the server unchanged), or {notation}.',
  examples: [{ from: 'e3', to: 'c3', turn: 'WHITE', notation: 'e3-c3' }],
});

export const historyItemSchema = Type.Union([stateSchema, notationSchema, fullMoveSchema, notationOnlyMoveSchema], {
  description:
    'One earlier step of the game, oldest first, all items of one kind. Either the moves played from the initial position ' +
    '(notation strings "e4-e7" or move objects), replayed and checked for legality; or the earlier server states in order ' +
    '(the initial state may be the first; each next state must follow from the previous one by a legal move, and the ' +
    'request state from the last; a last item equal to the request state is ignored). Used for the draw by repetition.',
  examples: ['e3-c3', { from: 'a4', to: 'a3', turn: 'BLACK' }],
});

/** Longest history accepted (a Challenge game is far shorter; this bounds the work per request). */
export const MAX_HISTORY = 2000;
