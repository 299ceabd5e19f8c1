/**
 * npm run review -- --record games.jsonl [--url http://host:port] [--game tablut] [--params "m=9&n=9&k=5"]
 *                   [--player default] [--ms 500 | --depth 8] [--lost]
 *
 * A thin client of POST /v1/games/{game}/review: each recorded game of `npm run arena -- --record`
 * is sent whole (opening included) to a running server (--url), or to the service started in this
 * process (the same app and worker pool), and the review of `player`'s moves after the opening is
 * printed: the move, the engine's preferred move when it differs, the mover's win probability with
 * the preferred move and after the move played, the drop, and the classification.
 */
import { readFileSync } from 'node:fs';
import { UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { findGame } from '../src/games/registry.js';
import type { GameRecord } from './arena.js';
import { firstMoverSide, parseParams, startPosition } from './arena.js';

const USAGE = `npm run review -- --record games.jsonl [options]

Reviews recorded arena games through POST /v1/games/{game}/review and prints the moves of one player.

Options:
  --record FILE   games written by npm run arena -- --record (required)
  --url URL       a running Kibitz server (default: start the service in this process)
  --game ID       game id (default tablut)
  --params QUERY  initial-state parameters, e.g. "m=9&n=9&k=5"
  --player NAME   whose moves to print (default "default")
  --ms N          time per position searched (10 or more, default 500): timeBudgetMs = N x (moves + 1), at most 60000
  --depth N       maxDepth per position (reproducible)
  --lost          only the games the player did not win
  --help          this text
`;

/** Sends one request body to a path and returns the status and the parsed answer. */
export type Client = (path: string, body: unknown) => Promise<{ status: number; body: unknown }>;

export interface ReviewedPly {
  ply: number;
  side: string;
  move: { notation: string };
  bestMove: { notation: string };
  evaluation: { winProbability: number };
  bestEvaluation: { winProbability: number };
  winProbabilityDrop: number;
  classification: string;
  depth: number;
}

export interface ReviewOptions {
  readonly game: string;
  readonly params: Record<string, unknown>;
  readonly player: string;
  readonly lost: boolean;
  readonly ms: number;
  readonly depth: number | undefined;
}

/** Reviews the records through the endpoint; returns the printed lines. */
export async function reviewRecords(client: Client, records: readonly GameRecord[], options: ReviewOptions): Promise<string[]> {
  const def = findGame(options.game);
  if (def === undefined) throw new UsageError(`--game: unknown game '${options.game}'`);
  const start = startPosition(def, options.params);
  const initialState = def.encodeState(start);
  const out: string[] = [];
  for (const record of records) {
    const points = record.first === options.player ? record.result : record.second === options.player ? 1 - record.result : undefined;
    if (points === undefined || (options.lost && points === 1)) continue;
    const moves = [...record.opening, ...record.moves];
    const body = {
      initialState,
      moves,
      timeBudgetMs: Math.min(60_000, options.ms * (moves.length + 1)),
      ...(options.depth === undefined ? {} : { maxDepth: options.depth }),
    };
    const answer = await client(`/v1/games/${def.id}/review`, body);
    if (answer.status !== 200) {
      const error = answer.body as { code?: string; message?: string };
      throw new Error(`game ${record.pair}: ${answer.status} ${error.code ?? ''} ${error.message ?? ''}`.trim());
    }
    const firstMover = firstMoverSide(start, record.opening.length);
    const playerSide = def.sideNames[record.first === options.player ? firstMover : 1 - firstMover];
    out.push(`pair ${record.pair}: ${record.first} - ${record.second}, ${options.player} scored ${points}; opening ${record.opening.join(' ')}`);
    for (const p of (answer.body as { plies: ReviewedPly[] }).plies) {
      if (p.ply < record.opening.length || p.side !== playerSide) continue;
      const prefers = p.bestMove.notation === p.move.notation ? '' : ` (prefers ${p.bestMove.notation})`;
      const wp = (x: number) => x.toFixed(3);
      out.push(
        `  ply ${p.ply} ${p.move.notation}${prefers}: ${wp(p.bestEvaluation.winProbability)} -> ${wp(p.evaluation.winProbability)}, ` +
          `drop ${wp(p.winProbabilityDrop)}, ${p.classification}, depth ${p.depth}`,
      );
    }
  }
  return out;
}

/** A client of a running server. */
export function httpClient(url: string): Client {
  return async (path, body) => {
    const res = await fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
}

/** The service in this process (same app, same worker pool); close() stops it. */
export async function localClient(): Promise<{ client: Client; close: () => Promise<void> }> {
  // Loaded when used: --help, a bad option and --url answer without loading fastify and the pool.
  const [{ loadConfig }, { buildApp }, { SearchPool }] = await Promise.all([
    import('../src/config.js'),
    import('../src/http/app.js'),
    import('../src/pool/pool.js'),
  ]);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', CACHE_ENTRIES: '0' });
  const pool = new SearchPool({ threads: config.workers, maxQueue: config.maxQueue, ttSizeMb: config.ttSizeMb });
  await pool.warmUp();
  const app = await buildApp({ config, pool });
  await app.ready();
  return {
    client: async (path, body) => {
      const res = await app.inject({ method: 'POST', url: path, payload: body as Record<string, unknown> });
      return { status: res.statusCode, body: res.json() };
    },
    close: async () => {
      await app.close();
      await pool.close();
    },
  };
}

runCliIfMain(
  import.meta.url,
  {
    name: 'npm run review',
    usage: USAGE,
    options: {
      record: { type: 'string' },
      url: { type: 'string' },
      game: { type: 'string' },
      params: { type: 'string' },
      player: { type: 'string' },
      ms: { type: 'string' },
      depth: { type: 'string' },
      lost: { type: 'boolean' },
    },
  },
  async ({ values }) => {
    if (typeof values.record !== 'string') throw new UsageError('--record <games.jsonl> is required (written by npm run arena -- --record)');
    const options: ReviewOptions = {
      game: typeof values.game === 'string' ? values.game : 'tablut',
      params: parseParams(typeof values.params === 'string' ? values.params : undefined),
      player: typeof values.player === 'string' ? values.player : 'default',
      lost: values.lost === true,
      ms: intOption(values, 'ms', 500, 10, 60_000),
      depth: values.depth === undefined ? undefined : intOption(values, 'depth', 1, 1, 200),
    };
    const records = readFileSync(values.record, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as GameRecord);
    const local = typeof values.url === 'string' ? undefined : await localClient();
    const client = local?.client ?? httpClient(values.url as string);
    try {
      for (const line of await reviewRecords(client, records, options)) console.log(line);
    } finally {
      await local?.close();
    }
  },
);
