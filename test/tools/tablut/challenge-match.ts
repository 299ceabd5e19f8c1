/**
 * The Tablut Challenge match tool's reading of the server's and the clients' output, and its summary.
 * The fixture is the standard output of the official server (AGalassi/TablutCompetition, Server -t 30
 * -r 4) for a real 11-ply game that White won (Kibitz White, tablut.cpp Black); no Java needed here.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type GameRecord,
  kibitzPoints,
  nextColour,
  parseKibitzOutput,
  parseRivalTimes,
  parseServerOutput,
  recordedGames,
  splitCommand,
  summarise,
} from '../../../tools/tablut-challenge-match.js';

const fixture = readFileSync(new URL('../../fixtures/tablut/challenge-server-win.txt', import.meta.url), 'utf8');

t.test('server output: the moves in order and the result line', async (t) => {
  const report = parseServerOutput(fixture);
  t.equal(report.moves.length, 11);
  t.same(report.moves.slice(0, 3), ['e7-f7', 'e8-e7', 'e5-e6']);
  t.equal(report.moves[10], 'c7-a7', 'the king reaches the edge');
  t.equal(report.result, 'WHITEWIN');
  t.equal(report.reason, 'rules');
});

t.test('server output: a timeout, too many errors, a draw, and a server that died', async (t) => {
  const timeout = 'Waiting for W...\nTimeout!!!!\nPlayer W has lost!\n';
  t.same(parseServerOutput(timeout), { moves: [], result: 'BLACKWIN', reason: 'timeout' });
  t.equal(parseServerOutput('Timeout!!!!\nPlayer B has lost!\n').result, 'WHITEWIN');
  const errors = 'Suggested move: Turn: B Pawn from a4 to a1\nTOO MANY ERRORS FOR BLACK PLAYER; PLAYER WHITE WIN!\nEND OF THE GAME\nRESULT: PLAYER WHITE WIN\n';
  t.same(parseServerOutput(errors), { moves: ['a4-a1'], result: 'WHITEWIN', reason: 'errors' });
  t.equal(parseServerOutput('END OF THE GAME\nRESULT: DRAW\n').result, 'DRAW');
  t.same(parseServerOutput('Waiting for connections...\n'), { moves: [], result: 'ERROR', reason: 'error' });
});

t.test('client output: Kibitz\'s scores, depths and times; the rival\'s times by its pattern', async (t) => {
  const kibitz = 'connected ...\nWHITE move 1: e7-f7 (depth 5, score 142, 56528 nodes, 2696 ms)\nWHITE move 2: e5-e6 (depth 7, score -31, 20595 nodes, 188 ms)\n';
  t.same(parseKibitzOutput(kibitz), { scores: [142, -31], depths: [5, 7], thinkMs: [2696, 188] });
  const rival = 'Finding best move...\nTime taken to find best move: 2632 ms\nnoise\nTime taken to find best move: 2931 ms\n';
  t.same(parseRivalTimes(rival, 'Time taken to find best move: (\\d+) ms'), [2632, 2931]);
  t.same(parseRivalTimes(rival, 'no such line (\\d+)'), []);
});

function record(kibitz: 'WHITE' | 'BLACK', result: GameRecord['result'], plies: number, think: [number, number]): GameRecord {
  return {
    game: 1, rival: 'r', kibitz, seconds: 3, threads: 2, result, reason: result === 'ERROR' ? 'error' : 'rules',
    kibitzPoints: kibitzPoints(result, kibitz), plies, moves: [], kibitzScores: [], kibitzDepths: [],
    kibitzThinkMs: [think[0]], rivalThinkMs: [think[1]], startedAt: '', wallSeconds: 0, load: 0,
  };
}

t.test('summary per colour: W/D/L, plies per game and per win, think times; errors apart', async (t) => {
  t.equal(kibitzPoints('WHITEWIN', 'WHITE'), 1);
  t.equal(kibitzPoints('WHITEWIN', 'BLACK'), 0);
  t.equal(kibitzPoints('DRAW', 'BLACK'), 0.5);
  t.equal(kibitzPoints('ERROR', 'BLACK'), null);
  const lines = summarise([
    record('WHITE', 'WHITEWIN', 21, [2700, 2000]),
    record('WHITE', 'BLACKWIN', 65, [2500, 2100]),
    record('BLACK', 'BLACKWIN', 40, [2600, 1900]),
    record('BLACK', 'ERROR', 3, [2600, 1900]),
  ]);
  t.same(lines, [
    'Kibitz as WHITE: +1 =0 -1, 50% of 2; plies per game 43.0, per win 21.0 (longest 21); think Kibitz 2600 ms, rival 2050 ms a move; timeouts 0',
    'Kibitz as BLACK: +1 =0 -0 (1 errors), 100% of 1; plies per game 21.5, per win 40.0 (longest 40); think Kibitz 2600 ms, rival 1900 ms a move; timeouts 0',
  ]);
});

t.test('a record resumes: only games of the same rival, time and threads count', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'challenge-match-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'games.jsonl');
  t.same(recordedGames(file, { rivalName: 'r', seconds: 3, threads: 2 }), [], 'no file yet');
  const other = { ...record('WHITE', 'DRAW', 10, [1, 1]), threads: 1 };
  writeFileSync(file, [record('WHITE', 'DRAW', 10, [1, 1]), other, record('BLACK', 'BLACKWIN', 12, [1, 1])].map((r) => JSON.stringify(r)).join('\n') + '\n');
  t.equal(recordedGames(file, { rivalName: 'r', seconds: 3, threads: 2 }).length, 2);
  t.same(splitCommand('  java -cp a:b  Server '), ['java', '-cp', 'a:b', 'Server']);
});

t.test('a game that ends before its first move is not counted: another of its colour replaces it', async (t) => {
  const g = (kibitz: 'WHITE' | 'BLACK', plies: number, reason: GameRecord['reason'] = plies < 2 ? 'timeout' : 'rules') => ({ kibitz, plies, reason });
  t.equal(nextColour([], 4), 'WHITE');
  t.equal(nextColour([g('WHITE', 11)], 4), 'BLACK');
  t.equal(nextColour([g('WHITE', 11), g('BLACK', 30)], 4), 'WHITE', 'without forfeits, White in the odd games');
  t.equal(nextColour([g('WHITE', 11), g('BLACK', 0)], 4), 'BLACK', 'the forfeited Black game is played again');
  t.equal(nextColour([g('WHITE', 11), g('BLACK', 0), g('BLACK', 30)], 4), 'WHITE', 'a tie alternates from the last game');
  t.equal(nextColour([g('WHITE', 11), g('BLACK', 30), g('WHITE', 5), g('BLACK', 0)], 4), 'BLACK');
  t.equal(nextColour([g('WHITE', 11), g('BLACK', 30), g('WHITE', 5), g('BLACK', 8)], 4), null, 'two a colour on the board');
  t.equal(nextColour([g('WHITE', 11), g('WHITE', 0), g('BLACK', 8)], 3), 'WHITE', 'odd games: White plays the extra one');
  t.equal(nextColour([g('BLACK', 0), g('BLACK', 0)], 2, 2), null, 'at most maxAttempts games in all');
  const rivalFirstMove = [g('WHITE', 11), g('BLACK', 30), g('WHITE', 1), g('BLACK', 20)];
  t.equal(nextColour(rivalFirstMove, 4), 'WHITE', 'the rival lost on time at its first move (ply 1): not counted');
  t.equal(nextColour([g('WHITE', 3, 'timeout')], 2), 'BLACK', 'a timeout after both sides moved counts');
  t.equal(nextColour([g('WHITE', 1, 'rules')], 2), 'BLACK', 'a game the rules ended counts');
  const forfeit = { ...record('BLACK', 'WHITEWIN', 0, [0, 0]), reason: 'timeout' as const, kibitzThinkMs: [], rivalThinkMs: [] };
  t.same(summarise([record('BLACK', 'BLACKWIN', 40, [2600, 1900]), forfeit]), [
    '1 games forfeited on a client\'s first move (not counted below)',
    'Kibitz as BLACK: +1 =0 -0, 100% of 1; plies per game 40.0, per win 40.0 (longest 40); think Kibitz 2600 ms, rival 1900 ms a move; timeouts 0',
  ]);
});
