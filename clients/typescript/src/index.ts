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
