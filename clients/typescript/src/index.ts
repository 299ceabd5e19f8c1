/**
 * @kibitz/client: typed requests and responses for every Kibitz route, generated from the service's
 * OpenAPI document (schema.ts, by `npm run client` in the repository root) and sent with
 * openapi-fetch (a thin typed wrapper around fetch).
 *
 *   import { createKibitzClient } from '@kibitz/client';
 *   const kibitz = createKibitzClient('http://localhost:8080');
 *   const { data, error } = await kibitz.POST('/v1/games/mnk/best-move', {
 *     body: { state: { m: 15, n: 15, k: 5, board, turn: 'X' }, timeBudgetMs: 1000 },
 *   });
 *   if (data) console.log(data.move.notation, data.evaluation.score); else console.error(error.code, error.message);
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** A client for one Kibitz server: `GET` / `POST` with typed paths, bodies and answers. */
export type KibitzClient = Client<paths>;

/** A client for the server at baseUrl (e.g. "http://localhost:8080"); options go to openapi-fetch. */
export function createKibitzClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): KibitzClient {
  return createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
}

/** The JSON body of a route and method (e.g. RequestBody<'/v1/games/mnk/best-move', 'post'>). */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The 200 answer of a route and method. */
export type OkResponse<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer R } } };
}
  ? R
  : never;

/** The analyse routes (`/v1/games/{game}/analyse`). */
export type AnalysePath = Extract<keyof paths, `/v1/games/${string}/analyse`>;

/** The final answer of an analyse route (the JSON answer, and the `result` event's data). */
export type AnalyseResult<P extends AnalysePath> = OkResponse<P, 'post'>;

/** One `progress` event: the lines of a completed iteration. */
export interface AnalyseProgress<P extends AnalysePath> {
  depth: number;
  lines: AnalyseResult<P> extends { lines: infer L } ? L : never;
  nodes: number;
  elapsedMs: number;
}

/** An error answer ({statusCode, code, message}) as an exception. */
export class KibitzError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'KibitzError';
  }
}

export interface StreamOptions<P extends AnalysePath> {
  /** Called after each completed iteration of the search. */
  readonly onProgress?: (progress: AnalyseProgress<P>) => void;
  /** Aborting closes the connection, which stops the search on the server. */
  readonly signal?: AbortSignal;
  /** fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/**
 * Live analysis: POSTs to an analyse route with `Accept: text/event-stream`, calls onProgress for
 * every `progress` event, and resolves with the `result` event's data (the same as the JSON answer).
 * A refusal (4xx, 503) or an `error` event rejects with a KibitzError.
 */
export async function streamAnalysis<P extends AnalysePath>(
  baseUrl: string,
  path: P,
  body: RequestBody<P, 'post'>,
  options: StreamOptions<P> = {},
): Promise<AnalyseResult<P>> {
  const doFetch = options.fetch ?? fetch;
  const response = await doFetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!response.ok || response.body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await response.text();
    let error: { code?: string; message?: string } = {};
    try {
      error = JSON.parse(text) as typeof error;
    } catch {
      error = { message: text };
    }
    throw new KibitzError(response.status, error.code ?? 'HTTP_ERROR', error.message ?? `HTTP ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value !== undefined) buffer += value;
    // Events end with a blank line; comment lines (": heartbeat") carry nothing.
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length === 0) continue;
      const payload: unknown = JSON.parse(data.join('\n'));
      if (event === 'progress') options.onProgress?.(payload as AnalyseProgress<P>);
      else if (event === 'result') {
        await reader.cancel();
        return payload as AnalyseResult<P>;
      } else if (event === 'error') {
        await reader.cancel();
        const e = payload as { statusCode?: number; code?: string; message?: string };
        throw new KibitzError(e.statusCode ?? 500, e.code ?? 'SEARCH_FAILED', e.message ?? 'the search failed');
      }
    }
    if (done) throw new KibitzError(502, 'STREAM_ENDED', 'the event stream ended without a result');
  }
}
