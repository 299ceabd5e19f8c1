/**
 * Perft from the standard start in both conventions, against perft.json from
 * the reference set shared/reference/othello (copied to test/fixtures/othello): rows[d - 1].edaxConvention and
 * rows[d - 1].terminalConvention. The bitboard path runs depths 1..10 in both conventions (they
 * first differ at depth 10, where finished games appear); the SearchPosition path (the search's) runs 1..9 from
 * the start, and from each of the 100 positions of vectors.json (test/fixtures/othello, the same reference set:
 * 4 to 50 empties, passes and finished games within reach) it must count what the bitboard path counts, in both
 * conventions. Its depth-10 count from the start (24.6 M leaves) cost 10-16 s under coverage on a loaded
 * machine; the positions check its passes and finished games for a fraction of that. Depth 11 (both
 * conventions) runs in the bench.
 */
import t from 'tap';
import { perft } from '../../../src/search/perft.js';
import { fastPerft } from '../../../src/games/othello/perft.js';
import { perftBits } from '../../../src/games/othello/flips.js';
import { fixture, positionOf, startPosition, type Vector } from './helpers.js';

interface PerftRow {
  depth: number;
  edaxConvention: number;
  terminalConvention: number;
}
const rows = fixture<{ rows: PerftRow[] }>('perft.json').rows;
const TEST_DEPTH = 10;
const GENERIC_DEPTH = 9;
const VECTOR_DEPTH = 4;

t.test('generic perft (SearchPosition interface), both conventions', async (t) => {
  const pos = startPosition();
  for (const row of rows.filter((r) => r.depth <= GENERIC_DEPTH)) {
    t.equal(perft(pos, row.depth, false), row.edaxConvention, `depth ${row.depth}: perft.json edaxConvention`);
    t.equal(perft(pos, row.depth, true), row.terminalConvention, `depth ${row.depth}: perft.json terminalConvention`);
  }
  t.equal(pos.ply, 0, 'position back at the root');
  t.equal(pos.empties, 60);
});

t.test('generic perft equals the bitboard perft from the 100 reference positions (passes, finished games)', async (t) => {
  const vectors = fixture<{ vectors: Vector[] }>('vectors.json').vectors;
  let leaves = 0;
  let finished = 0;
  for (const v of vectors) {
    const pos = positionOf(v.board, v.turn);
    const edax = fastPerft(pos, VECTOR_DEPTH, false);
    const terminal = fastPerft(pos, VECTOR_DEPTH, true);
    t.equal(perft(pos, VECTOR_DEPTH, false), edax, `${v.id}: Edax convention`);
    t.equal(perft(pos, VECTOR_DEPTH, true), terminal, `${v.id}: terminal convention`);
    leaves += edax;
    finished += terminal - edax;
  }
  // Were the positions too far from the end, the two conventions would agree and finished games go unchecked.
  t.ok(finished > 0 && leaves > 100_000, `${leaves} leaves, ${finished} finished games counted in the terminal convention only`);
});

t.test('bitboard perft used by the bench, both conventions', async (t) => {
  const pos = startPosition();
  for (const row of rows.filter((r) => r.depth <= TEST_DEPTH)) {
    t.equal(fastPerft(pos, row.depth, false), row.edaxConvention, `depth ${row.depth}: perft.json edaxConvention`);
    t.equal(fastPerft(pos, row.depth, true), row.terminalConvention, `depth ${row.depth}: perft.json terminalConvention`);
  }
});

t.test('perftBits with the sides swapped at a pass-free start (White to move first)', async (t) => {
  // The start is symmetric under swapping colours and mirroring, so White moving first gives the same counts.
  const pos = startPosition();
  const [bl, bh, wl, wh] = [pos.bits[0], pos.bits[1], pos.bits[2], pos.bits[3]];
  for (const row of rows.filter((r) => r.depth <= 7)) {
    t.equal(perftBits(wl, wh, bl, bh, row.depth, 0), row.edaxConvention, `depth ${row.depth}`);
    t.equal(perftBits(wl, wh, bl, bh, row.depth, 1), row.terminalConvention, `depth ${row.depth}, finished games counted`);
  }
  t.equal(perftBits(bl, bh, wl, wh, 0, 0), 1, 'depth 0 is the position itself');
});
