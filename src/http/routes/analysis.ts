/**
 * Analysis routes of a game: POST analyse (several lines with scores and win probabilities, root move
 * filters, node limits; JSON, or Server-Sent Events with one `progress` event per completed
 * iteration) and POST review (a whole game, positions searched in parallel on the pool). No game
 * logic here: every game gets the same routes from the generic search.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from '../../vendor/typebox.js';
import type { GameDefinition, MoveJson, SearchPosition } from '../../games/types.js';
import { CancelledError } from '../../pool/pool.js';
import type { ProgressMessage, SearchTaskResult } from '../../pool/task.js';
import type { SearchLine } from '../../search/search.js';
import { ApiError, errorBody, fromFieldError } from '../errors.js';
import {
  type ClientEvaluation,
  type RootOptions,
  bodyLimits,
  encodePv,
  fallbackResult,
  legalMoveCodes,
  searchJob,
  searchThreads,
  toClientEvaluation,
} from '../game-service.js';
import { ErrorBody, Evaluation, StopReasonSchema, type gameSchemas } from '../schemas.js';
import type { GameRouteOptions } from './options.js';
import { countedPoolError, refuseIfGameOver, admitSearch } from '../pool-errors.js';
import { observeDelivery } from '../response-reserve.js';
import { registerReview } from './review.js';

/** Lines an analyse request gets when it does not say. */
export const DEFAULT_MULTI_PV = 3;
/** Most lines a client may ask for. */
export const MAX_CLIENT_MULTI_PV = 32;

export interface FilterBody {
  searchMoves?: unknown[];
  avoidMoves?: unknown[];
}

export interface AnalyseBody extends FilterBody {
  state: unknown;
  history?: unknown[];
  timeBudgetMs?: number;
  maxDepth?: number;
  seed?: number;
  maxNodes?: number;
  multiPv?: number;
  threads?: number;
  probCut?: number;
}

/**
 * The root moves a request allows (searchMoves, less avoidMoves), or undefined when it names none.
 * Every element must be a legal move named once: the error names it (`body/searchMoves/2`).
 */
export function decodeRootFilter(def: GameDefinition<SearchPosition>, pos: SearchPosition, body: FilterBody): number[] | undefined {
  if (body.searchMoves === undefined && body.avoidMoves === undefined) return undefined;
  const legal = legalMoveCodes(pos);
  const decodeList = (name: 'searchMoves' | 'avoidMoves', list: readonly unknown[]): number[] => {
    const codes: number[] = [];
    list.forEach((item, i) => {
      const field = `body/${name}/${i}`;
      const decoded = def.decodeMove(pos, item, field);
      if (!decoded.ok) throw fromFieldError(decoded.error);
      const notation = def.encodeMove(pos, decoded.value).notation;
      if (!legal.includes(decoded.value)) throw new ApiError('ILLEGAL_MOVE', `${field}: ${notation} is not legal in this position`, { field });
      if (codes.includes(decoded.value)) throw new ApiError('DUPLICATE_MOVE', `${field}: ${notation} is already in ${name}`, { field });
      codes.push(decoded.value);
    });
    return codes;
  };
  const only = body.searchMoves === undefined ? legal : decodeList('searchMoves', body.searchMoves);
  const avoid = body.avoidMoves === undefined ? [] : decodeList('avoidMoves', body.avoidMoves);
  const allowed = only.filter((move) => !avoid.includes(move));
  if (allowed.length === 0) {
    const field = body.avoidMoves === undefined ? 'body/searchMoves' : 'body/avoidMoves';
    throw new ApiError('NO_MOVE_LEFT', `${field}: searchMoves and avoidMoves leave no legal move to search`, { field });
  }
  return allowed;
}

export interface ClientLine {
  move: MoveJson;
  evaluation: ClientEvaluation;
  pv: MoveJson[];
}

export function clientLines(def: GameDefinition<SearchPosition>, pos: SearchPosition, lines: readonly SearchLine[]): ClientLine[] {
  return lines.map((line) => ({
    move: def.encodeMove(pos, line.move),
    evaluation: toClientEvaluation(def, line),
    pv: encodePv(def, pos, line.pv.length > 0 && line.pv[0] === line.move ? line.pv : [line.move]),
  }));
}

export interface AnalysisAnswer {
  lines: ClientLine[];
  depth: number;
  nodes: number;
  nps: number;
  elapsedMs: number;
  queueMs: number;
  stopReason: SearchTaskResult['stopReason'];
}

/** The JSON answer (also the SSE `result` event): a result without usable lines is answered by the fallback. */
export function analysisAnswer(
  def: GameDefinition<SearchPosition>,
  pos: SearchPosition,
  result: SearchTaskResult,
  arrivedAt: number,
  root: RootOptions,
): AnalysisAnswer {
  const allowed = root.rootMoves ?? legalMoveCodes(pos);
  let r = result;
  if (r.lines.length === 0 || r.lines.some((line) => !allowed.includes(line.move))) {
    r = { ...fallbackResult(pos, root), stopReason: r.stopReason };
  }
  const searchMs = Math.max(1, r.finishedAt - r.startedAt);
  return {
    lines: clientLines(def, pos, r.lines),
    depth: r.depth,
    nodes: r.nodes,
    nps: Math.round((r.nodes * 1000) / searchMs),
    elapsedMs: Math.max(0, Date.now() - arrivedAt),
    queueMs: Math.max(0, r.startedAt - arrivedAt),
    stopReason: r.stopReason,
  };
}

type Schemas = ReturnType<typeof gameSchemas>;

export function analysisSchemas(def: GameDefinition<SearchPosition>, schemas: Schemas) {
  const moveOut = def.moveSchema;
  const line = Type.Object(
    {
      move: moveOut,
      evaluation: Evaluation,
      pv: Type.Array(moveOut, { description: 'The expected continuation, starting with `move`.' }),
    },
    { additionalProperties: false, description: 'One candidate move, searched to `depth` with a full window (its score is exact at that depth).' },
  );
  const lines = Type.Array(line, { description: 'Best first; as many as multiPv asks for, or every allowed move when there are fewer.' });
  // A level is for playing a game (best-move); analysis always shows the full engine's lines.
  const { level: _level, ...searchProperties } = schemas.bestMoveBody.properties;
  const analyseBody = Type.Object(
    {
      ...searchProperties,
      multiPv: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_CLIENT_MULTI_PV,
          description: `Number of lines (default ${DEFAULT_MULTI_PV}); each is searched to the reported depth (true multi-PV).`,
          examples: [3],
        }),
      ),
    },
    { additionalProperties: false, examples: [{ state: def.exampleState, timeBudgetMs: 1000, multiPv: 3 }] },
  );
  const stats = {
    depth: Type.Integer({ minimum: 0, description: 'Deepest completed iteration (plies).' }),
    nodes: Type.Integer({ minimum: 0, description: 'Positions visited.' }),
  };
  const analyseReply = Type.Object(
    {
      lines,
      ...stats,
      nps: Type.Integer({ minimum: 0, description: 'Nodes per second of the search.' }),
      elapsedMs: Type.Integer({ minimum: 0, description: "Milliseconds from the request's arrival to the answer." }),
      queueMs: Type.Integer({ minimum: 0, description: 'Milliseconds spent waiting for a worker.' }),
      stopReason: StopReasonSchema,
    },
    { additionalProperties: false },
  );
  const progressEvent = Type.Object(
    { lines, ...stats, elapsedMs: Type.Integer({ minimum: 0, description: "Milliseconds since the request's arrival." }) },
    { additionalProperties: false, description: 'Data of a `progress` event: the lines of one completed iteration.' },
  );
  const stream = Type.String({
    description:
      'Server-Sent Events (send `Accept: text/event-stream`). `event: progress` after each completed iteration, data ' +
      '`AnalyseProgress` (depth, lines, nodes, elapsedMs); then one `event: result` whose data equals the JSON answer; then the ' +
      'stream ends. A search that fails after the stream started ends with `event: error`, data `ErrorBody`. Lines starting ' +
      'with `:` are heartbeats (sent after SSE_HEARTBEAT_MS without an event). Refusals (503 QUEUE_FULL, 4xx) come as plain ' +
      'JSON errors before any event. Closing the connection stops the search.',
    examples: ['event: progress\ndata: {"depth":1,"lines":[...],"nodes":40,"elapsedMs":3}\n\nevent: result\ndata: {...}\n\n'],
  });
  return { analyseBody, analyseReply, progressEvent, stream, line };
}

const errors = (...statuses: number[]): Record<number, TSchema> => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

export function registerAnalysis(
  fastify: FastifyInstance,
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  schemas: Schemas,
  decode: (body: { state: unknown; history?: unknown[] }) => SearchPosition,
): void {
  const own = analysisSchemas(def, schemas);
  fastify.post(
    `/v1/games/${def.id}/analyse`,
    {
      schema: {
        tags: ['analysis'],
        summary: `${def.name}: several candidate moves with evaluations, win probabilities and lines`,
        description:
          'Like best-move, with `multiPv` lines best first, root move filters and a node limit; with maxDepth or maxNodes (and ' +
          'seed) the answer is reproducible. With `Accept: text/event-stream` the answer is a stream of progress events.',
        body: own.analyseBody,
        response: {
          200: {
            description: 'The lines (JSON), or the live analysis (Server-Sent Events).',
            content: { 'application/json': { schema: own.analyseReply }, 'text/event-stream': { schema: own.stream } },
          },
          ...errors(400, 413, 415, 422, 429, 500, 503),
        },
      },
    },
    async (request, reply) => analyseRoute(def, opts, request, reply, decode),
  );
  registerReview(fastify, def, opts, schemas);
}

function wantsEventStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.toLowerCase().includes('text/event-stream');
}

async function analyseRoute(
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  decode: (body: AnalyseBody) => SearchPosition,
) {
  const body = request.body as AnalyseBody;
  const arrivedAt = request.arrivedAt;
  const budget = body.timeBudgetMs ?? opts.config.defaultTimeBudgetMs;
  const pos = decode(body);
  refuseIfGameOver(def, pos, 'analyse');
  const root: RootOptions = { multiPv: body.multiPv ?? DEFAULT_MULTI_PV, rootMoves: decodeRootFilter(def, pos, body) };
  const deadline = arrivedAt + budget - opts.reserve.forBudget(budget);
  await admitSearch(opts.readiness, opts.metrics, deadline);
  const threads = searchThreads(body.threads, opts.config.maxSearchThreads);
  const job = searchJob(def, pos, { deadline, threads, ...bodyLimits(body), ...root });
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableEnded) controller.abort();
  };
  reply.raw.once('close', onClose);
  try {
    if (wantsEventStream(request)) {
      if (opts.streams.open >= opts.config.maxStreams) {
        opts.metrics.countRejected('too_many_streams');
        throw new ApiError('TOO_MANY_STREAMS', `${opts.config.maxStreams} analysis streams are open (MAX_STREAMS); retry later`, { retryAfter: 1 });
      }
      opts.streams.open++;
      try {
        await streamAnalysis(def, opts, request, reply, pos, job, controller.signal, root);
      } finally {
        opts.streams.open--;
      }
      return reply;
    }
    let outcome;
    try {
      outcome = await opts.pool.submit(job, controller.signal);
    } catch (error) {
      throw countedPoolError(opts.metrics, def.id, error);
    }
    observeDelivery(opts.reserve, reply, deadline, outcome);
    const answer = analysisAnswer(def, pos, outcome.result, arrivedAt, root);
    observe(opts, def, answer, outcome.source);
    return answer;
  } finally {
    reply.raw.removeListener('close', onClose);
  }
}

function observe(opts: GameRouteOptions, def: GameDefinition<SearchPosition>, answer: AnalysisAnswer, source: string): void {
  const { depth, nodes, nps, queueMs, stopReason } = answer;
  opts.metrics.observeSearch({ game: def.id, depth, nodes, nps, queueMs, stopReason, source });
}

/**
 * The SSE answer. A refusal the pool gives at once (queue full, shutting down) is still a plain error
 * response: the headers go out only once the search is admitted. Progress that arrives before them
 * waits in a backlog.
 */
async function streamAnalysis(
  def: GameDefinition<SearchPosition>,
  opts: GameRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  pos: SearchPosition,
  job: ReturnType<typeof searchJob>,
  signal: AbortSignal,
  root: RootOptions,
): Promise<void> {
  const arrivedAt = request.arrivedAt;
  const raw = reply.raw;
  const backlog: string[] = [];
  let open = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const write = (chunk: string): void => {
    if (!open) {
      backlog.push(chunk);
      return;
    }
    if (!raw.writableEnded && !raw.destroyed) raw.write(chunk);
    heartbeat?.refresh();
  };
  const event = (name: string, data: unknown): void => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  const onProgress = (info: ProgressMessage): void => {
    event('progress', {
      lines: clientLines(def, pos, info.lines),
      depth: info.depth,
      nodes: info.nodes,
      elapsedMs: Math.max(0, Date.now() - arrivedAt),
    });
  };
  const pending = opts.pool.submit({ ...job, onProgress }, signal);
  const refused = await Promise.race([
    pending.then(
      () => undefined,
      (error: unknown) => error,
    ),
    new Promise<undefined>((resolve) => setImmediate(resolve, undefined)),
  ]);
  if (refused !== undefined) throw countedPoolError(opts.metrics, def.id, refused);

  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  open = true;
  for (const chunk of backlog.splice(0)) write(chunk);
  // Every write re-arms the timer (refresh), the heartbeat's own write included: one comment per quiet period.
  heartbeat = setTimeout(() => write(': heartbeat\n\n'), opts.config.sseHeartbeatMs);
  try {
    const outcome = await pending;
    const answer = analysisAnswer(def, pos, outcome.result, arrivedAt, root);
    observe(opts, def, answer, outcome.source);
    event('result', answer);
  } catch (error) {
    const apiError = countedPoolError(opts.metrics, def.id, error);
    if (!(error instanceof CancelledError)) {
      request.log.error({ err: error }, 'analysis stream failed');
      event('error', errorBody(apiError, request.id));
    }
  } finally {
    clearTimeout(heartbeat);
    raw.end();
  }
}
