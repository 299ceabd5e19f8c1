/**
 * POST /v1/games/{game}/review: a whole game, ply by ply. Every position of the game (the one before
 * each move, and the final one) is searched once, in parallel across the pool, within the request's
 * total budget (queue included). For each ply the mover's win probability with the engine's
 * preferred move (the search of the position before it) is compared with the one after the move
 * played (the search of the position after it, seen from the mover), as Lichess does; the drop
 * classifies the move (thresholds in REVIEW_THRESHOLDS, documented in docs/analysis.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from '../../vendor/typebox.js';
import type { GameDefinition, SearchPosition } from '../../games/types.js';
import { QueueFullError, PoolClosedError } from '../../pool/pool.js';
import type { SearchTaskResult } from '../../pool/task.js';
import { parentScore } from '../../search/analyse.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_WIN, WIN_SCORE } from '../../search/score.js';
import { Searcher } from '../../search/search.js';
import { TranspositionTable } from '../../search/tt.js';
import { ApiError, fromFieldError } from '../errors.js';
import {
  type ClientEvaluation,
  type ScoredLine,
  encodePv,
  fallbackResult,
  legalMoveCodes,
  searchJob,
  statusOf,
  toClientEvaluation,
} from '../game-service.js';
import { ErrorBody, Evaluation, StatusBody, type gameSchemas } from '../schemas.js';
import type { GameRouteOptions } from './options.js';
import { countedPoolError, admitSearch } from '../pool-errors.js';

export const CLASSIFICATIONS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/**
 * Drops in the mover's win probability (0..1) from which a move is an inaccuracy, a mistake, a
 * blunder: Lichess's 0.1 / 0.2 / 0.3 in winning chances (-1..1), i.e. 5, 10 and 15 points of win
 * probability. Below the first: `good`; the engine's own move, or no drop at all: `best`.
 */
export const REVIEW_THRESHOLDS = { inaccuracy: 0.05, mistake: 0.1, blunder: 0.15 } as const;

/** Least budget per position of the game (moves + 1): below it a review could not keep to its budget. */
export const REVIEW_MIN_MS_PER_POSITION = 10;

/** Most moves the schema admits; the configured cap (REVIEW_MAX_PLIES) is checked after it. */
const SCHEMA_MAX_MOVES = 10_000;

export function classify(drop: number, playedPreferred: boolean): Classification {
  if (playedPreferred || drop <= 0) return 'best';
  if (drop >= REVIEW_THRESHOLDS.blunder) return 'blunder';
  if (drop >= REVIEW_THRESHOLDS.mistake) return 'mistake';
  if (drop >= REVIEW_THRESHOLDS.inaccuracy) return 'inaccuracy';
  return 'good';
}

interface ReviewBody {
  initialState?: unknown;
  moves: unknown[];
  timeBudgetMs: number;
  maxDepth?: number;
  seed?: number;
}

type Schemas = ReturnType<typeof gameSchemas>;

export function reviewSchemas(def: GameDefinition<SearchPosition>, schemas: Schemas, maxTimeBudgetMs: number, maxDepth: number) {
  const moveOut = def.moveSchema;
  const reviewBody = Type.Object(
    {
      initialState: Type.Optional({ ...def.stateSchema, description: "Where the game starts (default: the game's initial state)." }),
      moves: Type.Array(schemas.moveInput, {
        minItems: 1,
        maxItems: SCHEMA_MAX_MOVES,
        description: 'The moves of the game in order (objects or notation). An illegal move is 422 naming `body/moves/n`.',
      }),
      timeBudgetMs: Type.Integer({
        minimum: 1,
        maximum: maxTimeBudgetMs,
        description:
          'Total wall-clock budget of the whole review, from arrival to answer, queue wait included; at least ' +
          `${REVIEW_MIN_MS_PER_POSITION} ms per position (moves + 1), else 400 naming body/timeBudgetMs.`,
        examples: [5000],
      }),
      maxDepth: Type.Optional(Type.Integer({ minimum: 1, maximum: maxDepth, description: 'Deepest iteration per position (plies).' })),
      seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295, description: 'Breaks ties between equal moves reproducibly.' })),
    },
    { additionalProperties: false, examples: [{ moves: [def.exampleMove.notation], timeBudgetMs: 5000 }] },
  );
  const ply = Type.Object(
    {
      ply: Type.Integer({ minimum: 0, description: 'Index of the move in `moves`.' }),
      side: Type.String({ description: 'The mover, as sides are named in states.' }),
      move: moveOut,
      evaluation: { ...Evaluation, description: "Evaluation after the move, from the mover's point of view." },
      bestMove: moveOut,
      bestEvaluation: { ...Evaluation, description: "Evaluation of the engine's preferred move, from the mover's point of view." },
      bestPv: Type.Array(moveOut, { description: "The engine's line from the position before the move." }),
      winProbabilityDrop: Type.Number({
        minimum: 0,
        maximum: 1,
        description: "How much the mover's win probability fell compared with the preferred move (0 when it did not).",
      }),
      classification: Type.Enum(CLASSIFICATIONS, {
        description:
          `\`best\` (the preferred move, or no drop), \`good\` (drop < ${REVIEW_THRESHOLDS.inaccuracy}), \`inaccuracy\` ` +
          `(>= ${REVIEW_THRESHOLDS.inaccuracy}), \`mistake\` (>= ${REVIEW_THRESHOLDS.mistake}), \`blunder\` (>= ${REVIEW_THRESHOLDS.blunder}).`,
      }),
      depth: Type.Integer({ minimum: 0, description: 'Depth the position before the move was searched to.' }),
    },
    { additionalProperties: false },
  );
  const reviewReply = Type.Object(
    {
      plies: Type.Array(ply, { description: 'One entry per move, in order.' }),
      status: StatusBody,
      nodes: Type.Integer({ minimum: 0, description: 'Positions visited by all the searches.' }),
      elapsedMs: Type.Integer({ minimum: 0, description: "Milliseconds from the request's arrival to the answer." }),
    },
    { additionalProperties: false },
  );
  return { reviewBody, reviewReply };
}

const errors = (...statuses: number[]): Record<number, TSchema> => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

export function registerReview(
  fastify: FastifyInstance,
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  schemas: Schemas,
): void {
  const own = reviewSchemas(def, schemas, opts.config.maxTimeBudgetMs, opts.config.maxDepth);
  fastify.post(
    `/v1/games/${def.id}/review`,
    {
      schema: {
        tags: ['analysis'],
        summary: `${def.name}: review a whole game: each move's evaluation, the engine's preferred move and a classification`,
        description:
          'Searches every position of the game in parallel on the pool within `timeBudgetMs` (queue included) and classifies each ' +
          `move by the drop in the mover's win probability. Games longer than REVIEW_MAX_PLIES (${opts.config.reviewMaxPlies} by ` +
          'default) are refused with 422 GAME_TOO_LONG.',
        body: own.reviewBody,
        response: { 200: own.reviewReply, ...errors(400, 413, 415, 422, 429, 500, 503) },
      },
    },
    async (request, reply) => reviewRoute(def, opts, request, reply),
  );
}

/** A search slice shorter than this is not worth a worker: the position gets a one-ply look instead. */
const MIN_SLICE_MS = 10;
const onePlySearcher = new Searcher(new TranspositionTable(1));

/**
 * A one-ply look computed here, cut at the deadline (after at most one poll interval of 128 nodes
 * once it has passed): depth 1 when there was time, else depth 0 and the first ordered move.
 */
function onePly(pos: SearchPosition, deadline: number): SearchTaskResult {
  const startedAt = Date.now();
  const r = onePlySearcher.search(pos, { maxDepth: 1, deadline: Math.max(deadline, startedAt + 1) });
  return { ...r, exactScore: undefined, stopReason: 'time', startedAt, finishedAt: Date.now() };
}

/** A finished position's value for its side to move (as the search scores a game that ended). */
function terminalLine(def: GameDefinition<SearchPosition>, pos: SearchPosition): ScoredLine {
  let status = pos.terminal();
  if (status === NOT_TERMINAL) status = -1;
  const score = status === RESULT_DRAW ? 0 : status === RESULT_WIN ? WIN_SCORE : -WIN_SCORE;
  const exactScore = def.engine.finalScore?.(pos);
  return { score, exact: true, ...(exactScore === undefined ? {} : { exactScore }) };
}

/** A position's value seen from the player who moved into it. */
function moverLine(line: ScoredLine): ScoredLine {
  const exactScore = line.exactScore === undefined ? undefined : line.exactScore === 0 ? 0 : -line.exactScore;
  return { score: parentScore(line.score), exact: line.exact, ...(exactScore === undefined ? {} : { exactScore }) };
}

async function reviewRoute(def: GameDefinition<SearchPosition>, opts: GameRouteOptions, request: FastifyRequest, reply: FastifyReply) {
  const body = request.body as ReviewBody;
  const arrivedAt = request.arrivedAt;
  if (body.moves.length > opts.config.reviewMaxPlies) {
    throw new ApiError('GAME_TOO_LONG', `body/moves: ${body.moves.length} moves; at most ${opts.config.reviewMaxPlies} may be reviewed`, {
      field: 'body/moves',
    });
  }
  const minimum = REVIEW_MIN_MS_PER_POSITION * (body.moves.length + 1);
  if (body.timeBudgetMs < minimum) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `body/timeBudgetMs: a review of ${body.moves.length} moves needs at least ${minimum} ms (${REVIEW_MIN_MS_PER_POSITION} ms per position)`,
      { field: 'body/timeBudgetMs' },
    );
  }
  let initial = body.initialState;
  if (initial === undefined) {
    const start = def.initialState({});
    if (!start.ok) throw fromFieldError(start.error);
    initial = start.value;
  }
  const decoded = def.decodeState(initial, undefined);
  if (!decoded.ok) throw fromFieldError({ ...decoded.error, field: decoded.error.field.replace(/^body\/state/, 'body/initialState') });
  const pos = decoded.value;

  // Replay: one snapshot per position (before each move, and the final one), the moves as codes.
  const snapshots: Int32Array[] = [];
  const codes: number[] = [];
  body.moves.forEach((item, n) => {
    const field = `body/moves/${n}`;
    if (statusOf(def, pos).status !== 'ongoing') throw new ApiError('ILLEGAL_MOVE', `${field}: the game is already over`, { field });
    const move = def.decodeMove(pos, item, field);
    if (!move.ok) throw fromFieldError(move.error);
    if (!legalMoveCodes(pos).includes(move.value)) {
      throw new ApiError('ILLEGAL_MOVE', `${field}: ${def.encodeMove(pos, move.value).notation} is not legal in this position`, { field });
    }
    snapshots.push(def.engine.snapshot(pos));
    codes.push(move.value);
    pos.makeMove(move.value);
  });
  snapshots.push(def.engine.snapshot(pos));
  const finalStatus = statusOf(def, pos);
  await admitSearch(opts.readiness, opts.metrics, arrivedAt + body.timeBudgetMs - opts.reserve.forBudget(body.timeBudgetMs));

  const positions = snapshots.map((snapshot) => def.engine.restore(snapshot));
  const ongoing = positions.map((p) => statusOf(def, p).status === 'ongoing');
  const results = await searchAll(def, opts, request, reply, positions, ongoing, body);

  let nodes = 0;
  for (const r of results) nodes += r?.nodes ?? 0;
  const plies = codes.map((code, n) => {
    const before = positions[n];
    const best = results[n]!;
    const bestLine = best.lines[0] ?? best;
    const after = results[n + 1];
    const afterLine = after === undefined ? terminalLine(def, positions[n + 1]) : (after.lines[0] ?? after);
    const bestEvaluation: ClientEvaluation = toClientEvaluation(def, bestLine);
    const evaluation = toClientEvaluation(def, moverLine(afterLine));
    const preferred = best.move >= 0 ? best.move : code;
    const drop = Math.max(0, Math.round((bestEvaluation.winProbability - evaluation.winProbability) * 1000) / 1000);
    return {
      ply: n,
      side: def.sideNames[before.side],
      move: def.encodeMove(before, code),
      evaluation,
      bestMove: def.encodeMove(before, preferred),
      bestEvaluation,
      bestPv: encodePv(def, before, best.pv.length > 0 && best.pv[0] === preferred ? best.pv : [preferred]),
      winProbabilityDrop: preferred === code ? 0 : drop,
      classification: classify(drop, preferred === code),
      depth: best.depth,
    };
  });
  return { plies, status: finalStatus, nodes, elapsedMs: Math.max(0, Date.now() - arrivedAt) };
}

/**
 * Searches the ongoing positions, as many at a time as the pool has threads. Each search gets an
 * equal share of the time left for its wave: with R positions left and T threads, a search started
 * now may run until now + (time left) / ceil(R / T). A position the pool refuses later on (queue full
 * because of other clients) is answered by the shallow fallback; a refusal of the first is a 503.
 */
async function searchAll(
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  positions: SearchPosition[],
  ongoing: boolean[],
  body: ReviewBody,
): Promise<Array<SearchTaskResult | undefined>> {
  const budget = body.timeBudgetMs;
  const finalDeadline = request.arrivedAt + budget - opts.reserve.forBudget(budget) - 2;
  const todo = positions.map((_, k) => k).filter((k) => ongoing[k]);
  const results: Array<SearchTaskResult | undefined> = positions.map(() => undefined);
  const threads = Math.max(1, opts.pool.stats().threads);
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableEnded) controller.abort();
  };
  reply.raw.once('close', onClose);
  let next = 0;
  let started = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const k = todo[next++];
      const left = todo.length - next + 1;
      const now = Date.now();
      const deadline = Math.min(finalDeadline, now + Math.max(0, finalDeadline - now) / Math.ceil(left / threads));
      if (deadline - now < MIN_SLICE_MS && started > 0) {
        // Out of time (a tiny budget for a long game): a one-ply look on this thread, not a queued search.
        results[k] = onePly(positions[k], finalDeadline);
        continue;
      }
      const job = searchJob(def, positions[k], { deadline, maxDepth: body.maxDepth, seed: body.seed, maxNodes: undefined });
      const first = started++ === 0;
      try {
        const outcome = await opts.pool.submit(job, controller.signal);
        results[k] = outcome.result;
        const r = outcome.result;
        const searchMs = Math.max(1, r.finishedAt - r.startedAt);
        const queueMs = Math.max(0, r.startedAt - now);
        const nps = Math.round((r.nodes * 1000) / searchMs);
        opts.metrics.observeSearch({ game: def.id, depth: r.depth, nodes: r.nodes, nps, queueMs, stopReason: r.stopReason, source: outcome.source });
      } catch (error) {
        if ((error instanceof QueueFullError && !first) || (error instanceof PoolClosedError && !first)) {
          results[k] = fallbackResult(positions[k]);
          continue;
        }
        controller.abort();
        throw error;
      }
      // A search cut before its first move (cancelled) still needs a move: answer it cheaply.
      if (results[k]!.move < 0 || results[k]!.lines.length === 0) results[k] = fallbackResult(positions[k]);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(threads, todo.length) }, () => worker()));
  } catch (error) {
    throw countedPoolError(opts.metrics, def.id, error);
  } finally {
    reply.raw.removeListener('close', onClose);
  }
  return results;
}
