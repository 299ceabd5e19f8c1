/**
 * Defence as the second player (issue 2, section 5: the engine lost about half its games as O on
 * 15x15 K = 5, even against the arena's one-ply 'greedy' baseline).
 *  - Root defence soundness, on a position from such a lost game (arena, --opening-plies 0,
 *    seed 1, pair 3, default as O against greedy, after the 15 plies listed below): every reply the
 *    solver removes from the root list must really lose (an independent search proves X's win),
 *    and the solver must not claim a loss while replies survive.
 *  - Move-ordering hint (the change made): a move making an open three (two or more K-2 windows
 *    at once), or blocking one, must never be reduced by the search (hint >= TACTICAL_HINT);
 *    before, both were quiet, so late-move reduction searched open threes and their blocks 1-2 plies short. A stone
 *    making one closed K-2 window stays quiet. (Windows counted by hand from the boards.)
 */
import t from 'tap';
import { engine } from '../../../src/games/mnk/index.js';
import { TACTICAL_HINT } from '../../../src/games/types.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { PROVEN_THRESHOLD } from '../../../src/search/score.js';
import { positionOf } from '../../fixtures/mnk/boards.js';

/** Generous: the solver's own node budgets end it long before on any machine. */
const SLACK_MS = 60_000;
const ctx = (): { deadline: number; shouldStop: () => boolean } => {
  const deadline = Date.now() + SLACK_MS;
  return { deadline, shouldStop: () => Date.now() >= deadline };
};

// Greedy (X) 7,7 6,7 5,7 4,7 5,8 8,6 5,6 6,5; default (O) 6,8 8,7 8,8 3,7 8,9 7,6 5,5. O to move.
const ARENA_LOSS = [
  '...............',
  '...............',
  '...............',
  '.......O.......',
  '.......X.......',
  '.....OXXX......',
  '.....X.XO......',
  '......OX.......',
  '......XOOO.....',
  '...............',
  '...............',
  '...............',
  '...............',
  '...............',
  '...............',
];

t.test('root defence removes only replies that provably lose (arena game position)', async (t) => {
  const pos = positionOf(ARENA_LOSS, 5, 'O');
  const all = new Int32Array(256);
  const allCount = pos.generateSearchMoves(all, 0);
  const solved = engine.solve!(pos, ctx());
  t.equal(solved, null, 'no proven result: some replies survive the threat checks');
  // The K = 5 pattern path already narrows the list to the replies that stop X's open-three points
  // (its own fours, and the cells after which X has no winning four); the root defence may narrow it
  // further. Either way every candidate cell left out must lose.
  const kept = new Int32Array(256);
  const keptCount = pos.writeRootMoves(kept, 0) || allCount;
  if (keptCount === allCount) kept.set(all.subarray(0, allCount));
  t.ok(keptCount > 0 && keptCount < pos.candidateCount, `the move list and defence narrowed ${pos.candidateCount} candidate cells to ${keptCount}`);
  const keptSet = new Set(kept.subarray(0, keptCount));
  // 7,4 blocks X's diagonal 4,7-5,6-6,5: the reply a 4 s search of the full position picks.
  t.ok(keptSet.has(7 * 15 + 4), '7,4 is kept');
  const searcher = new Searcher(new TranspositionTable(8));
  for (const move of pos.candidates.subarray(0, pos.candidateCount)) {
    if (keptSet.has(move)) continue;
    const after = positionOf(ARENA_LOSS, 5, 'O');
    after.makeMove(move);
    searcher.tt.clear();
    const result = searcher.search(after, { maxDepth: 5, nodeLimit: 2_000_000 });
    t.ok(result.score > PROVEN_THRESHOLD, `removed reply ${Math.floor(move / 15)},${move % 15} loses (X wins by search)`);
  }
});

t.test('making or blocking an open three is ordered as a threat, a closed three is not', async (t) => {
  // X to move; row 7 holds X at columns 6 and 7: 7,8 makes .XXX. with room on both sides.
  const open = positionOf(
    [
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '......XX.......',
      '...............',
      '..O.......O....',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
    ],
    5,
    'X',
  );
  t.ok(open.moveOrderScore(7 * 15 + 8) >= TACTICAL_HINT, 'open three: never reduced');
  // X at 7,1 7,2 against O at 7,0 and the edge: 7,3 makes one K-2 window only (columns 1-5).
  const closed = positionOf(
    [
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      'OXX............',
      '...............',
      '..........O....',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
    ],
    5,
    'X',
  );
  t.ok(closed.moveOrderScore(7 * 15 + 3) < TACTICAL_HINT, 'closed three: quiet');
  // O to move against X's open three 7,6-7,8: 7,5 breaks the K-2 windows of columns 4-8 and 5-9.
  const block = positionOf(
    [
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
      '......XXX......',
      '...............',
      '..O.......O....',
      '...............',
      '...............',
      '...............',
      '...............',
      '...............',
    ],
    5,
    'O',
  );
  t.ok(block.moveOrderScore(7 * 15 + 5) >= TACTICAL_HINT, 'blocking an open three: never reduced');
});
