/**
 * The fallback search (a shallow search for requests whose queue wait ate their budget) keeps to the
 * request's root filter, on the fallback thread (runFallback, from the worker task) as on the main
 * thread (fallbackResult): a client that excluded moves never gets one of them back.
 */
import t from 'tap';
import { findGame } from '../../../src/games/registry.js';
import type { GameDefinition, SearchPosition } from '../../../src/games/types.js';
import { fallbackResult, legalMoveCodes, searchJob } from '../../../src/http/game-service.js';
import { runFallback } from '../../../src/pool/fallback.js';

const def = findGame('mnk') as GameDefinition<SearchPosition>;
const start = def.decodeState({ m: 3, n: 3, k: 3, board: ['...', '.X.', '...'], turn: 'O' }, undefined);
if (!start.ok) throw new Error('bad state');
const pos = start.value;
const legal = legalMoveCodes(pos);

t.test('the fallback thread keeps to rootMoves and multiPv', async (t) => {
  const only = [legal[legal.length - 1]];
  const job = searchJob(def, pos, { deadline: Date.now() + 1000, maxDepth: undefined, seed: undefined, rootMoves: only });
  const result = runFallback(job.task);
  t.equal(result.move, only[0], 'the only allowed move');
  const two = legal.slice(0, 2);
  const lines = runFallback(searchJob(def, pos, { deadline: Date.now() + 1000, maxDepth: undefined, seed: undefined, multiPv: 2, rootMoves: two }).task);
  t.same(lines.lines.map((l) => l.move).sort(), [...two].sort(), 'two lines, the two allowed moves');
  t.equal(result.stopReason, 'time');
});

t.test('the main-thread fallback keeps to the same filter', async (t) => {
  const only = [legal[0]];
  t.equal(fallbackResult(pos, { rootMoves: only }).move, only[0]);
  t.ok(legal.includes(fallbackResult(pos).move), 'unfiltered: a legal move');
});
