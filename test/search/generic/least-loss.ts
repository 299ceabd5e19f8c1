/**
 * An outcome-only proof (Othello's win/loss/draw proof beyond the exact limit) names any move with that
 * outcome. After a proven loss analyse() spends the rest of the budget on the generic search and plays
 * the move that loses least by its evaluation, keeping the proven loss; after a proven win, with a
 * deadline, it plays the search's move when a proof of the position after it shows that it wins too. Expected values come from the reference endgames
 * (test/fixtures/othello/endgames.json: `exactScore` and `moveValues`, every legal move's exact final disc
 * differential, agreed by two independent engines).
 */
import t from 'tap';
import { solveWinLossDraw } from '../../../src/games/othello/solver.js';
import { analyse } from '../../../src/search/analyse.js';
import { type IterationInfo, Searcher } from '../../../src/search/search.js';
import { isProven } from '../../../src/search/score.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { GAMES } from '../../../src/games/registry.js';
import { fixture, notation, positionOf, type Endgame } from '../../games/othello/helpers.js';

const endgames = fixture<{ positions: Endgame[] }>('endgames.json').positions;
const fresh = () => new Searcher(new TranspositionTable(4));
// The Othello engine with the outcome proof at any number of empties, so that fixed-depth limits
// (no deadline, a deterministic search) reach the new path.
const outcomeOnly = { ...GAMES.othello.engine, solve: solveWinLossDraw };

t.test('a proven loss: the generic search picks the move, the answer keeps the proof', async (t) => {
  const lost = endgames.filter((e) => e.exactScore < 0);
  t.same(lost.map((e) => e.id), ['e01', 'e07', 'e13', 'e19', 'e22']);
  let proofDiscs = 0;
  let answerDiscs = 0;
  for (const e of lost) {
    const proof = solveWinLossDraw(positionOf(e.board, e.turn), null)!;
    t.equal(proof.outcomeOnly, true, `${e.id}: the proof covers the outcome only`);
    const progress: IterationInfo[] = [];
    const pos = positionOf(e.board, e.turn);
    const r = analyse(outcomeOnly, pos, fresh(), { maxDepth: 4, onIteration: (i) => progress.push(i) });
    const searched = fresh().search(positionOf(e.board, e.turn), { maxDepth: 4 });
    t.equal(notation(r.move), notation(searched.move), `${e.id}: the depth-4 search's move`);
    t.same([r.solved, r.exact, r.stopReason, isProven(r.score), r.score < 0], [true, true, 'proven', true, true], `${e.id}: a proven loss`);
    t.same(r.lines.map((l) => [l.move, l.score, l.exact]), [[r.move, r.score, true]], `${e.id}: one line, the answer`);
    t.equal(r.pv[0], r.move, `${e.id}: the line starts with the move`);
    t.equal(r.nodes, proof.nodes + searched.nodes, `${e.id}: proof and search nodes`);
    t.equal(progress.length, 1, `${e.id}: only the proof is reported as progress`);
    proofDiscs += e.moveValues[notation(proof.move)];
    t.comment(`${e.id}: proof ${notation(proof.move)} ${e.moveValues[notation(proof.move)]}, answer ${notation(r.move)} ${e.moveValues[notation(r.move)]}`);
    answerDiscs += e.moveValues[notation(r.move)];
  }
  // The proof's moves: b1 -34, b2 -24, c7 -38, g1 -4, h6 -18. The depth-4 search plays a1 -30 and h7 -12
  // (both best) in e01 and e22, the same moves elsewhere; the best possible total is -106.
  t.same([proofDiscs, answerDiscs], [-118, -108], 'the exact values of the moves played (moveValues)');
});

t.test('a proven win or draw keeps the proof\'s move', async (t) => {
  for (const e of endgames.filter((x) => x.exactScore >= 0)) {
    const proof = solveWinLossDraw(positionOf(e.board, e.turn), null)!;
    const r = analyse(outcomeOnly, positionOf(e.board, e.turn), fresh(), { maxDepth: 4 });
    t.equal(notation(r.move), notation(proof.move), `${e.id}: the proof's move`);
    t.ok(e.moveValues[notation(r.move)] * Math.sign(e.exactScore) >= 0, `${e.id}: it keeps the outcome (moveValues)`);
    t.equal(r.nodes, proof.nodes, `${e.id}: no search`);
  }
});

t.test('a proven win with a deadline: the searched move when a proof shows it also wins', async (t) => {
  const won = endgames.filter((e) => e.exactScore > 0);
  t.same(won.map((e) => e.id), ['e04', 'e10', 'e16', 'e25', 'e28']);
  const played: string[] = [];
  for (const e of won) {
    const proof = solveWinLossDraw(positionOf(e.board, e.turn), null)!;
    const searched = fresh().search(positionOf(e.board, e.turn), { maxDepth: 4 });
    // A far deadline: the search stops at depth 4 (deterministic), the proof of its move always finishes.
    const r = analyse(outcomeOnly, positionOf(e.board, e.turn), fresh(), { maxDepth: 4, deadline: Date.now() + 600_000 });
    const name = notation(r.move);
    const searchedWins = e.moveValues[notation(searched.move)] > 0;
    t.equal(name, notation(searchedWins ? searched.move : proof.move), `${e.id}: the searched move if it wins, else the proof's`);
    t.same([r.solved, r.exact, r.stopReason, isProven(r.score), r.score > 0], [true, true, 'proven', true, true], `${e.id}: a proven win`);
    t.equal(r.pv[0], r.move, `${e.id}: the line starts with the move`);
    t.ok(e.moveValues[name] > 0, `${e.id}: ${name} wins (moveValues ${e.moveValues[name]})`);
    played.push(`${notation(proof.move)} ${e.moveValues[notation(proof.move)]} -> ${name} ${e.moveValues[name]}`);
  }
  // The proof's move is the first winning move its ordering tries. e04: the depth-4 search's b5 (+22) wins, so it is
  // played rather than the proof's b4 (+26); e25: both take a1 (+10). (Values: endgames.json's moveValues; best a3 +28, h4 +12.)
  t.same(played, ['b4 26 -> b5 22', 'g2 2 -> g2 2', 'e8 20 -> e8 20', 'a1 10 -> a1 10', 'h1 22 -> h1 22'], 'moves played (moveValues)');
});
