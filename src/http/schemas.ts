/**
 * Route schemas shared by every game. TypeBox schemas are the one source of validation, TypeScript
 * types and the OpenAPI document; every object rejects unknown properties.
 */
import { Type, type TSchema } from '../vendor/typebox.js';
import { ERROR_CATALOGUE, ERROR_CODES } from './errors.js';
import { type GameDefinition, type SearchPosition } from '../games/types.js';
import { MIN_LEVEL, TOP_LEVEL } from '../levels/levels.js';

export const SEARCH_STOP_REASONS = ['time', 'depth', 'proven', 'onlyMove', 'cancelled'] as const;
export const GAME_STATUSES = ['ongoing', 'win', 'draw'] as const;
export const OUTCOMES = ['win', 'loss', 'draw'] as const;

/** Longest history a request may carry (Tablut games are rarely longer than a few hundred plies). */
export const MAX_HISTORY = 1000;

export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer({ description: 'HTTP status, repeated for clients that lose it.', examples: [400] }),
    code: Type.Enum(ERROR_CODES, {
      description: `Stable machine-readable error code: ${ERROR_CODES.map((c) => `${c} (${ERROR_CATALOGUE[c].status})`).join(', ')}.`,
      examples: ['VALIDATION_ERROR'],
    }),
    error: Type.String({ description: 'HTTP reason phrase.', examples: ['Bad Request'] }),
    message: Type.String({
      description: 'Human-readable explanation that names the offending field.',
      examples: ['body/state/turn must be equal to one of the allowed values'],
    }),
    field: Type.Optional(
      Type.String({ description: 'Path of the offending field, e.g. `body/state/board/3`.', examples: ['body/state/board/3'] }),
    ),
    requestId: Type.Optional(Type.String({ description: 'Request id, also in the logs.', examples: ['req-1'] })),
  },
  { additionalProperties: false, description: 'Every error response has this shape.' },
);

export const GameIdParam = Type.Object(
  { gameId: Type.String({ maxLength: 64, description: 'Game id, see GET /v1/games.', examples: ['mnk'] }) },
  { additionalProperties: false },
);

export const Evaluation = Type.Object(
  {
    score: Type.Number({
      description:
        "Value for the side to move on the game's documented scale (see the catalogue's scoreScale); with `outcome`, the proven value.",
      examples: [0.35],
    }),
    outcome: Type.Optional(
      Type.Enum(OUTCOMES, { description: 'Present when the search proved the result with best play, for the side to move.' }),
    ),
    plies: Type.Optional(
      Type.Integer({ minimum: 0, description: 'With a proven win or loss: plies to the end of the game with best play.' }),
    ),
    winProbability: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'Chance that the side to move wins (a draw counts one half): 1, 0.5 or 0 for a proven win, draw or loss; otherwise the ' +
        "game's logistic curve of the score, fitted to engine games and kept within [0.001, 0.999] (docs/analysis.md).",
      examples: [0.62],
    }),
  },
  { additionalProperties: false, description: 'Evaluation from the side to move’s point of view.' },
);

export const StatusBody = Type.Object(
  {
    status: Type.Enum(GAME_STATUSES, { description: '`ongoing`, `win` (see `winner`) or `draw`.' }),
    winner: Type.Optional(Type.String({ description: 'With `win`: the winning side as written in states.' })),
  },
  { additionalProperties: false },
);

export const StopReasonSchema = Type.Enum(SEARCH_STOP_REASONS, {
  description:
    '`time`: the budget ran out; `depth`: maxDepth reached; `proven`: the result is proven; `onlyMove`: a single legal move; `cancelled`: the client left.',
});

/** Per-game request and response schemas, built from the game's state and move schemas. */
export function gameSchemas(def: GameDefinition<SearchPosition>, limits: { maxTimeBudgetMs: number; maxDepth: number; defaultTimeBudgetMs: number }) {
  const moveInput = Type.Union([def.moveSchema, Type.String({ minLength: 1, maxLength: 32, description: 'The move in notation.' })], {
    description: 'A move: the move object or its notation string.',
    examples: [def.exampleMove, def.exampleMove.notation],
  });
  const historyItem = def.historyItemSchema ?? Type.Union([def.stateSchema, moveInput]);
  const history = Type.Optional(
    Type.Array(historyItem, {
      maxItems: MAX_HISTORY,
      description: 'Earlier states or moves of the game, oldest first (used for repetition rules).',
    }),
  );
  const stateOnly = Type.Object(
    { state: def.stateSchema, history },
    { additionalProperties: false, examples: [{ state: def.exampleState }] },
  );
  const playBody = Type.Object(
    { state: def.stateSchema, move: moveInput, history },
    { additionalProperties: false, examples: [{ state: def.exampleState, move: def.exampleMove }] },
  );
  const bestMoveBody = Type.Object(
    {
      state: def.stateSchema,
      history,
      timeBudgetMs: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: limits.maxTimeBudgetMs,
          description: `Hard wall-clock limit from the request's arrival to its response, queue wait included (default ${limits.defaultTimeBudgetMs}).`,
          examples: [1000],
        }),
      ),
      maxDepth: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: limits.maxDepth,
          description: 'Deepest iteration in plies. With maxDepth (and seed) the answer is reproducible when the budget allows the depth.',
          examples: [6],
        }),
      ),
      seed: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 4294967295, description: 'Breaks ties between equal moves reproducibly.', examples: [42] }),
      ),
      level: Type.Optional(
        Type.Integer({
          minimum: MIN_LEVEL,
          maximum: TOP_LEVEL,
          description:
            `Playing level from ${MIN_LEVEL} (weakest) to ${TOP_LEVEL} (full strength, the default). Below the top the engine plays like a ` +
            'weaker player: a node-limited search, then a choice among its best lines weighted by their loss of win probability; it ' +
            'answers in a fraction of the budget, reproducibly with `seed`, and ignores maxDepth, maxNodes, threads and probCut. Each ' +
            "level's measured Elo is in the catalogue (`levels`).",
          examples: [3],
        }),
      ),
      ...rootOptions(moveInput),
      ...probCutOption(def),
    },
    { additionalProperties: false, examples: [{ state: def.exampleState, timeBudgetMs: 1000 }] },
  );
  const moveOut = def.moveSchema;
  const legalMovesReply = Type.Object(
    { moves: Type.Array(moveOut, { description: 'Every legal move (empty when the game is over).' }), status: StatusBody },
    { additionalProperties: false },
  );
  const playReply = Type.Object({ state: def.stateSchema, status: StatusBody }, { additionalProperties: false });
  const bestMoveReply = Type.Object(
    {
      move: moveOut,
      evaluation: Evaluation,
      pv: Type.Array(moveOut, { description: 'Principal variation: the expected line of best play, starting with `move`.' }),
      depth: Type.Integer({ minimum: 0, description: 'Deepest completed search iteration (plies).' }),
      nodes: Type.Integer({ minimum: 0, description: 'Positions visited.' }),
      nps: Type.Integer({ minimum: 0, description: 'Nodes per second of the search.' }),
      elapsedMs: Type.Integer({ minimum: 0, description: "Milliseconds from the request's arrival to the answer." }),
      queueMs: Type.Integer({ minimum: 0, description: 'Milliseconds spent waiting for a worker.' }),
      stopReason: StopReasonSchema,
      cached: Type.Boolean({
        description:
          'True when the answer was not searched for this request but served from the result cache (this replica\'s, or the one ' +
          'the replicas share in Redis): a stored search at least as deep as this request asks for. `depth`, `nodes`, `nps` and ' +
          '`stopReason` are then the stored search\'s, `queueMs` is 0 and `elapsedMs` the time to serve it.',
      }),
    },
    { additionalProperties: false },
  );
  return { moveInput, history, stateOnly, playBody, bestMoveBody, legalMovesReply, playReply, bestMoveReply };
}

/** Most moves a searchMoves or avoidMoves list may name. */
export const MAX_MOVE_FILTER = 512;

/** Highest ProbCut confidence a request may set (beyond it nearly nothing is cut). */
export const MAX_PROBCUT = 4;

/** The `probCut` request option, for games whose search uses Multi-ProbCut (others reject the field). */
function probCutOption(def: GameDefinition<SearchPosition>): Record<string, TSchema> {
  const fallback = def.engine.defaultProbCut;
  if (fallback === undefined) return {};
  return {
    probCut: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_PROBCUT,
        description:
          `Multi-ProbCut confidence in standard deviations (default ${fallback}): the midgame search prunes a move when a shallow ` +
          'search predicts the deep one beyond the window with this confidence. Higher is safer and slower, 0 turns it off. ' +
          'Never used by the exact endgame solver.',
        examples: [fallback],
      }),
    ),
  };
}

/** Node limit and root move filters, shared by best-move and analyse. */
function rootOptions(moveInput: TSchema) {
  const list = (what: string) =>
    Type.Optional(
      Type.Array(moveInput, {
        minItems: 1,
        maxItems: MAX_MOVE_FILTER,
        description: `${what} Each must be legal and named once (422 ILLEGAL_MOVE or DUPLICATE_MOVE naming the element).`,
      }),
    );
  return {
    maxNodes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 4294967295,
        description: 'Stop after about this many nodes (the time budget still applies). With maxNodes (and seed) the answer is reproducible.',
        examples: [100000],
      }),
    ),
    threads: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 256,
        description:
          'Threads for this one search (Lazy SMP; default 1): capped by the service (MAX_SEARCH_THREADS) and by the workers free when ' +
          'it starts, so it may get fewer. For deep analysis of one position, not for throughput. Above 1 the answer is not reproducible; ' +
          'with maxNodes only one thread is used.',
        examples: [2],
      }),
    ),
    searchMoves: list('Search only these root moves.'),
    avoidMoves: list('Search every root move but these.'),
  };
}
