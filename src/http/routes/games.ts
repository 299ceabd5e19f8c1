/**
 * Game routes. Each game gets its own concrete routes (so its state and move schemas validate the
 * request and document it in OpenAPI); a parametric twin answers 404 GAME_NOT_FOUND for other ids.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from '../../vendor/typebox.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { GAMES } from '../../games/registry.js';
import { GAME_IDS, type GameDefinition, type SearchPosition } from '../../games/types.js';
import { ApiError, fromFieldError } from '../errors.js';
import { admitSearch, countedPoolError, holdRefusal, refuseIfGameOver } from '../pool-errors.js';
import { observeDelivery } from '../response-reserve.js';
import { ErrorBody, GameIdParam, gameSchemas } from '../schemas.js';
import { decodeRootFilter, registerAnalysis } from './analysis.js';
import type { GameRouteOptions } from './options.js';
import { WIN_PROB_COMMANDS, WIN_PROB_CURVES } from '../../analysis/winprob.js';
import {
  bodyLimits,
  encodeMoves,
  encodePv,
  fallbackResult,
  legalMoveCodes,
  searchJob,
  searchThreads,
  statusOf,
  toClientEvaluation,
  weakerLevel,
} from '../game-service.js';
import { LEVEL_ELO, MIN_LEVEL, TOP_LEVEL } from '../../levels/levels.js';

const errors = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

const CatalogueEntry = Type.Object(
  {
    id: Type.String({ description: 'Game id used in URLs.', examples: ['mnk'] }),
    name: Type.String({ description: 'Display name.' }),
    rules: Type.String({ description: 'The rules in one paragraph.' }),
    scoreScale: Type.String({ description: 'How to read `evaluation.score` for this game.' }),
    stateSchema: Type.Unknown({ description: 'JSON Schema of the state.' }),
    moveSchema: Type.Unknown({ description: 'JSON Schema of a move (requests also accept its notation string).' }),
    initialStateQuery: Type.Optional(Type.Unknown({ description: 'JSON Schema of the initial-state query parameters.' })),
    searchOptions: Type.Unknown({ description: 'JSON Schema of the best-move request.' }),
    winProbability: Type.Object(
      {
        formula: Type.String({ description: 'How `evaluation.winProbability` is computed from a heuristic score.' }),
        scale: Type.Number({ description: 'Fitted constant (internal score units).' }),
        exponent: Type.Number({ description: 'Fitted constant.' }),
        fittedBy: Type.String({ description: 'The command that reproduces the fit (calibration in docs/analysis.md).' }),
      },
      { additionalProperties: false, description: 'The win-probability curve of heuristic scores (proven results are 1, 0.5, 0).' },
    ),
    levels: Type.Object(
      {
        min: Type.Integer({ description: 'Weakest level.', examples: [MIN_LEVEL] }),
        max: Type.Integer({ description: 'Full strength: the default.', examples: [TOP_LEVEL] }),
        measured: Type.Optional(
          Type.Object(
            {
              params: Type.String({ description: 'Game parameters of the measurement (query-string form; empty: the defaults).' }),
              msPerMove: Type.Integer({ description: 'Time per move of the top level and the seed engine in the measurement.' }),
              elo: Type.Array(
                Type.Object(
                  {
                    level: Type.Integer(),
                    elo: Type.Integer({ description: 'Elo relative to the seed engine (0) at msPerMove.' }),
                    error: Type.Integer({ description: '95% error bar.' }),
                  },
                  { additionalProperties: false },
                ),
              ),
              pairs: Type.Array(
                Type.Object(
                  {
                    a: Type.String(),
                    b: Type.String(),
                    games: Type.Integer(),
                    score: Type.Number({ description: "a's score against b, draws half." }),
                  },
                  { additionalProperties: false },
                ),
                { description: 'The games the fit is made of.' },
              ),
              command: Type.String({ description: 'The command that reproduces the measurement.' }),
            },
            { additionalProperties: false, description: "Each level's strength, measured by round robin in the arena (docs/levels.md)." },
          ),
        ),
      },
      { additionalProperties: false, description: 'The range of the best-move `level` option and what each level is worth.' },
    ),
    exampleState: Type.Unknown({ description: 'The initial state with default parameters.' }),
    exampleMove: Type.Unknown({ description: 'An example move.' }),
  },
  { additionalProperties: false },
);

/** Plain JSON copy of a TypeBox schema (drops TypeBox's symbol keys). */
function plainSchema(schema: TSchema): unknown {
  return JSON.parse(JSON.stringify(schema));
}

export const gameRoutes: FastifyPluginAsync<GameRouteOptions> = async (fastify, opts) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const limits = { maxTimeBudgetMs: opts.config.maxTimeBudgetMs, maxDepth: opts.config.maxDepth, defaultTimeBudgetMs: opts.config.defaultTimeBudgetMs };

  const catalogue = GAME_IDS.map((id) => {
    const def = GAMES[id];
    const schemas = gameSchemas(def, limits);
    return {
      id,
      name: def.name,
      rules: def.rules,
      scoreScale: def.scoreScale,
      stateSchema: plainSchema(def.stateSchema),
      moveSchema: plainSchema(def.moveSchema),
      ...(def.initialStateQuerySchema === undefined ? {} : { initialStateQuery: plainSchema(def.initialStateQuerySchema) }),
      searchOptions: plainSchema(schemas.bestMoveBody),
      winProbability: winProbabilityEntry(id),
      levels: levelsEntry(id),
      exampleState: def.exampleState,
      exampleMove: def.exampleMove,
    };
  });

  app.get(
    '/v1/games',
    {
      schema: {
        tags: ['games'],
        summary: 'The catalogue: every game with its rules, formats, search options and an example state.',
        response: { 200: Type.Array(CatalogueEntry) },
      },
    },
    async () => catalogue,
  );

  app.get(
    '/v1/games/:gameId',
    {
      schema: {
        tags: ['games'],
        summary: 'One catalogue entry.',
        params: GameIdParam,
        response: { 200: CatalogueEntry, ...errors(404) },
      },
    },
    async (request) => {
      const entry = catalogue.find((c) => c.id === request.params.gameId);
      if (entry === undefined) throw unknownGame(request.params.gameId);
      return entry;
    },
  );

  for (const id of GAME_IDS) registerGame(app, GAMES[id], opts, limits);

  // Other ids: the same paths with a parameter, answering 404 (hidden from the document).
  const unknown = async (request: FastifyRequest<{ Params: { gameId: string } }>) => {
    throw unknownGame(request.params.gameId);
  };
  const hidden = { schema: { hide: true, params: GameIdParam } };
  app.get('/v1/games/:gameId/initial-state', hidden, unknown);
  for (const action of ['legal-moves', 'play', 'best-move', 'analyse', 'review']) app.post(`/v1/games/:gameId/${action}`, hidden, unknown);
};

function levelsEntry(id: (typeof GAME_IDS)[number]) {
  const table = LEVEL_ELO[id];
  if (table === undefined) return { min: MIN_LEVEL, max: TOP_LEVEL };
  const measured = {
    params: table.params,
    msPerMove: table.msPerMove,
    elo: table.levels.map(({ level, elo, error }) => ({ level, elo, error })),
    pairs: table.pairs.map(({ a, b, games, score }) => ({ a, b, games, score })),
    command: table.command,
  };
  return { min: MIN_LEVEL, max: TOP_LEVEL, measured };
}

function winProbabilityEntry(id: (typeof GAME_IDS)[number]) {
  const curve = WIN_PROB_CURVES[id];
  return {
    formula:
      'p = 1 / (1 + exp(-z)), z = sign(s) * (|s| / scale) ^ exponent, s the internal heuristic score for the side to move ' +
      '(see scoreScale for its client form); rounded to 3 decimals within [0.001, 0.999]',
    scale: curve.scale,
    exponent: curve.exponent,
    fittedBy: WIN_PROB_COMMANDS[id],
  };
}

function unknownGame(id: string): ApiError {
  const known = GAME_IDS.join(', ');
  return new ApiError('GAME_NOT_FOUND', `params/gameId: no game "${id.slice(0, 64)}"; known games: ${known}`, { field: 'params/gameId' });
}

function registerGame(
  fastify: FastifyInstance,
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  limits: { maxTimeBudgetMs: number; maxDepth: number; defaultTimeBudgetMs: number },
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const schemas = gameSchemas(def, limits);
  const base = `/v1/games/${def.id}`;
  const tags = ['games'];

  const decode = (body: { state: unknown; history?: unknown[] }): SearchPosition => {
    const decoded = def.decodeState(body.state, body.history);
    if (!decoded.ok) throw fromFieldError(decoded.error);
    return decoded.value;
  };

  app.get(
    `${base}/initial-state`,
    {
      schema: {
        tags,
        summary: `${def.name}: the initial state`,
        ...(def.initialStateQuerySchema === undefined ? {} : { querystring: def.initialStateQuerySchema }),
        response: { 200: def.stateSchema, ...errors(400) },
      },
    },
    async (request) => {
      const result = def.initialState((request.query ?? {}) as Record<string, unknown>);
      if (!result.ok) throw fromFieldError(result.error);
      return result.value;
    },
  );

  app.post(
    `${base}/legal-moves`,
    {
      schema: {
        tags,
        summary: `${def.name}: every legal move and the game status`,
        body: schemas.stateOnly,
        response: { 200: schemas.legalMovesReply, ...errors(400, 413, 415, 422) },
      },
    },
    async (request) => {
      const pos = decode(request.body);
      const status = statusOf(def, pos);
      const moves = status.status === 'ongoing' ? encodeMoves(def, pos, legalMoveCodes(pos)) : [];
      return { moves, status };
    },
  );

  app.post(
    `${base}/play`,
    {
      schema: {
        tags,
        summary: `${def.name}: play a move; returns the next state and the game status`,
        body: schemas.playBody,
        response: { 200: schemas.playReply, ...errors(400, 413, 415, 422) },
      },
    },
    async (request) => {
      const pos = decode(request.body);
      refuseIfGameOver(def, pos, 'play');
      const move = def.decodeMove(pos, request.body.move, 'body/move');
      if (!move.ok) throw fromFieldError(move.error);
      if (!legalMoveCodes(pos).includes(move.value)) {
        throw new ApiError('ILLEGAL_MOVE', `body/move: ${def.encodeMove(pos, move.value).notation} is not legal in this position`, { field: 'body/move' });
      }
      pos.makeMove(move.value);
      return { state: def.encodeState(pos), status: statusOf(def, pos) };
    },
  );

  app.post(
    `${base}/best-move`,
    {
      schema: {
        tags: ['search'],
        summary: `${def.name}: the best move within the time budget`,
        description:
          'Answers within `timeBudgetMs` of arrival (queue wait included) with the best move of the deepest completed iteration. ' +
          'A disconnecting client cancels its search. 503 QUEUE_FULL with Retry-After when every worker is busy and the queue is full.',
        body: schemas.bestMoveBody,
        response: { 200: schemas.bestMoveReply, ...errors(400, 413, 415, 422, 429, 500, 503) },
      },
      // Load shedding: with every worker busy and the queue full, refuse before validating and decoding
      // the body, so that refusals cost the event loop as little as possible under overload.
      preValidation: async (request) => {
        // Not stats(): its utilization figure costs about a millisecond, more than the refusal itself.
        if (opts.pool.saturated()) {
          opts.metrics.countRejected('queue_full');
          // The body is not validated yet: its budget counts only if it is a positive number.
          const asked = (request.body as { timeBudgetMs?: unknown } | undefined)?.timeBudgetMs;
          const budget = typeof asked === 'number' && asked > 0 ? asked : opts.config.defaultTimeBudgetMs;
          await holdRefusal(opts.config.refusalHoldMs, request.arrivedAt, budget);
          throw new ApiError('QUEUE_FULL', 'every search worker is busy and the queue is full; retry later', { retryAfter: 1 });
        }
      },
    },
    async (request, reply) => bestMove(def, opts, request, reply, decode),
  );
  registerAnalysis(app, def, opts, schemas, decode);
}

interface BestMoveBody {
  state: unknown;
  history?: unknown[];
  timeBudgetMs?: number;
  maxDepth?: number;
  seed?: number;
  maxNodes?: number;
  threads?: number;
  probCut?: number;
  level?: number;
  searchMoves?: unknown[];
  avoidMoves?: unknown[];
}

async function bestMove(
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  decode: (body: BestMoveBody) => SearchPosition,
) {
  const body = request.body as BestMoveBody;
  const arrivedAt = request.arrivedAt;
  const budget = body.timeBudgetMs ?? opts.config.defaultTimeBudgetMs;
  const pos = decode(body);
  refuseIfGameOver(def, pos, 'suggest');
  const deadline = arrivedAt + budget - opts.reserve.forBudget(budget);
  await admitSearch(opts.readiness, opts.metrics, deadline);
  const legal = legalMoveCodes(pos);
  const rootMoves = decodeRootFilter(def, pos, body);
  const allowed = rootMoves ?? legal;
  const cacheLimits = { budgetMs: budget, maxDepth: body.maxDepth, seed: body.seed };
  const threads = searchThreads(body.threads, opts.config.maxSearchThreads);
  // The cache holds plain answers only (no node limit, no filter, one thread, the default ProbCut).
  // A level below the top plays its own move (seeded or random): never cached.
  const cacheable =
    rootMoves === undefined && body.maxNodes === undefined && threads === 1 && body.probCut === undefined && weakerLevel(body.level) === undefined;
  if (opts.cache.enabled && cacheable && legal.length > 1) {
    const hit = await opts.cache.lookup(def, pos, body.state, body.history, cacheLimits);
    opts.metrics.countCache(hit?.tier);
    if (hit !== undefined) {
      void reply.header('x-kibitz-cache', 'hit');
      opts.metrics.observeSearch({ game: def.id, ...hit.answer, queueMs: 0, source: 'cache' });
      const elapsedMs = Math.max(0, Date.now() - arrivedAt);
      return { move: hit.move, pv: hit.pv, ...hit.answer, elapsedMs, queueMs: 0, cached: true };
    }
  }

  let result;
  let source = 'direct';
  if (legal.length === 1) {
    result = { ...fallbackResult(pos), stopReason: 'onlyMove' as const };
  } else {
    const controller = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableEnded) controller.abort();
    };
    reply.raw.once('close', onClose);
    try {
      const job = searchJob(def, pos, { deadline, threads, rootMoves, level: body.level, ...bodyLimits(body) });
      const outcome = await opts.pool.submit(job, controller.signal);
      result = outcome.result;
      source = outcome.source;
      observeDelivery(opts.reserve, reply, deadline, outcome);
    } catch (error) {
      throw countedPoolError(opts.metrics, def.id, error);
    } finally {
      reply.raw.removeListener('close', onClose);
    }
  }
  // A worker can only miss a move if it was cut before its first root move: answer cheaply then.
  if (result.move < 0 || !allowed.includes(result.move)) result = { ...fallbackResult(pos, { rootMoves }), stopReason: result.stopReason };

  const searchMs = Math.max(1, result.finishedAt - result.startedAt);
  const answer = {
    move: def.encodeMove(pos, result.move),
    evaluation: toClientEvaluation(def, result),
    pv: encodePv(def, pos, result.pv.length > 0 && result.pv[0] === result.move ? result.pv : [result.move]),
    depth: result.depth,
    nodes: result.nodes,
    nps: Math.round((result.nodes * 1000) / searchMs),
    elapsedMs: Math.max(0, Date.now() - arrivedAt),
    queueMs: Math.max(0, result.startedAt - arrivedAt),
    stopReason: result.stopReason,
    cached: false,
  };
  if (source === 'worker' && cacheable) {
    const { evaluation, depth, nodes, nps, stopReason } = answer;
    opts.cache.store(def, body.state, body.history, cacheLimits, { evaluation, depth, nodes, nps, stopReason }, answer.pv);
  }
  opts.metrics.observeSearch({
    game: def.id,
    depth: answer.depth,
    nodes: answer.nodes,
    nps: answer.nps,
    queueMs: answer.queueMs,
    stopReason: answer.stopReason,
    source,
  });
  request.log.info(
    {
      game: def.id,
      source,
      budgetMs: budget,
      elapsedMs: answer.elapsedMs,
      queueMs: answer.queueMs,
      depth: answer.depth,
      nodes: answer.nodes,
      stopReason: answer.stopReason,
    },
    'search',
  );
  return answer;
}
