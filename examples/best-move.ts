/**
 * npm run example -- [--url http://localhost:8080] [--budget-ms 500]
 *
 * The typed client (@kibitz/client) at work: for each game, the initial state from the server, then
 * the best move in it. Every path, body and answer below is checked by the compiler against the
 * service's OpenAPI document.
 */
import { createKibitzClient, type KibitzClient } from '@kibitz/client';
import { type CliSpec, intOption, runCliIfMain } from '../src/core/cli.js';

export interface GameAnswer {
  readonly game: string;
  readonly move: string;
  readonly score: number;
  readonly depth: number;
}

/** A failed call's error body (the service's {code, message}) as an exception. */
function fail(what: string, error: unknown): never {
  const e = error as { code?: string; message?: string } | undefined;
  throw new Error(`${what}: ${e?.code ?? 'error'} ${e?.message ?? JSON.stringify(error)}`);
}

/** The best move of each game's initial position (gomoku on 15x15 for the (M,N,K)-game). */
export async function bestMoves(kibitz: KibitzClient, timeBudgetMs: number): Promise<GameAnswer[]> {
  const answers: GameAnswer[] = [];

  const mnk = await kibitz.GET('/v1/games/mnk/initial-state', { params: { query: { m: 15, k: 5 } } });
  if (mnk.data === undefined) fail('mnk initial-state', mnk.error);
  const mnkMove = await kibitz.POST('/v1/games/mnk/best-move', { body: { state: mnk.data, timeBudgetMs } });
  if (mnkMove.data === undefined) fail('mnk best-move', mnkMove.error);
  answers.push({ game: 'mnk', move: mnkMove.data.move.notation ?? '', score: mnkMove.data.evaluation.score, depth: mnkMove.data.depth });

  const othello = await kibitz.GET('/v1/games/othello/initial-state');
  if (othello.data === undefined) fail('othello initial-state', othello.error);
  const othelloMove = await kibitz.POST('/v1/games/othello/best-move', { body: { state: othello.data, timeBudgetMs } });
  if (othelloMove.data === undefined) fail('othello best-move', othelloMove.error);
  answers.push({ game: 'othello', move: othelloMove.data.move.notation ?? '', score: othelloMove.data.evaluation.score, depth: othelloMove.data.depth });

  const tablut = await kibitz.GET('/v1/games/tablut/initial-state');
  if (tablut.data === undefined) fail('tablut initial-state', tablut.error);
  const tablutMove = await kibitz.POST('/v1/games/tablut/best-move', { body: { state: tablut.data, timeBudgetMs } });
  if (tablutMove.data === undefined) fail('tablut best-move', tablutMove.error);
  answers.push({ game: 'tablut', move: tablutMove.data.move.notation ?? '', score: tablutMove.data.evaluation.score, depth: tablutMove.data.depth });

  const hadron = await kibitz.GET('/v1/games/hadron/initial-state');
  if (hadron.data === undefined) fail('hadron initial-state', hadron.error);
  const hadronMove = await kibitz.POST('/v1/games/hadron/best-move', { body: { state: hadron.data, timeBudgetMs } });
  if (hadronMove.data === undefined) fail('hadron best-move', hadronMove.error);
  answers.push({ game: 'hadron', move: hadronMove.data.move.notation ?? '', score: hadronMove.data.evaluation.score, depth: hadronMove.data.depth });

  return answers;
}

const SPEC: CliSpec<{ url: { type: 'string' }; 'budget-ms': { type: 'string' } }> = {
  name: 'npm run example',
  usage: `usage: npm run example -- [--url URL] [--budget-ms N]

Asks a running Kibitz server (default http://localhost:8080) for the best move of each game's
initial position through the typed client @kibitz/client, and prints them.
  --url URL       the server (default http://localhost:8080)
  --budget-ms N   time budget per move (default 500)
  -h, --help      this text`,
  options: { url: { type: 'string' }, 'budget-ms': { type: 'string' } },
};

runCliIfMain(import.meta.url, SPEC, async ({ values }) => {
  const kibitz = createKibitzClient(values.url ?? 'http://localhost:8080');
  for (const a of await bestMoves(kibitz, intOption(values, 'budget-ms', 500, 1))) {
    console.log(`${a.game.padEnd(8)} ${a.move.padEnd(12)} score ${a.score} (depth ${a.depth})`);
  }
});
