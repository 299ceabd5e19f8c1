/**
 * kibitz-nboard, the NBoard (protocol version 2) engine: scripted GUI sessions in-process over a
 * one-thread search pool, then the compiled executable over its pipes (ping while thinking).
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { NBoardEngine, type NBoardOptions, moveText, parseGgf } from '../../src/adapters/nboard/engine.js';
import { definition as othello, type OthelloPosition } from '../../src/games/othello/index.js';
import { PASS_MOVE } from '../../src/games/othello/board.js';
import { SearchPool } from '../../src/pool/pool.js';
import { Random } from '../../src/core/random.js';
import { NOT_TERMINAL } from '../../src/search/score.js';
import { LineProcess } from '../../tools/line-process.js';
import { NBoardEngine as NBoardClient, ggfGame } from '../../tools/nboard-client.js';
import { untracked } from '../support/untracked.js';
import { fromRoot } from '../support/paths.js';

const NBOARD = fromRoot('dist/src/adapters/nboard.js');
const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb: 4, fallbackThread: false });
t.teardown(() => pool.close());

/** An in-process engine; `say` feeds lines and waits until all are answered, returning stdout lines. */
function session(options: NBoardOptions = { defaultDepth: 4, maxSeconds: 30 }) {
  const out: string[] = [];
  const err: string[] = [];
  const engine = new NBoardEngine(pool, (line) => out.push(line), (line) => err.push(line), options);
  const say = async (...lines: string[]): Promise<string[]> => {
    out.length = 0;
    for (const line of lines) engine.receive(line);
    await engine.idle();
    return [...out];
  };
  return { engine, out, err, say };
}

function start(): OthelloPosition {
  const s = othello.initialState({});
  if (!s.ok) throw new Error('start');
  const d = othello.decodeState(s.value, undefined);
  if (!d.ok) throw new Error('start');
  return d.value;
}

function legalMoves(pos: OthelloPosition): number[] {
  const buf = new Int32Array(64);
  return [...buf.subarray(0, pos.generateMoves(buf, 0))];
}

function codeOf(text: string): number {
  return text.toUpperCase() === 'PA' ? PASS_MOVE : (Number(text[1]) - 1) * 8 + (text.toUpperCase().charCodeAt(0) - 65);
}

const ANSWER = /^=== ([A-H][1-8]|PA)\/(-?\d+\.\d\d)\/(\d+\.\d)$/;

t.test('set depth answers set myname (like Edax); ping, learn, contempt, unknown lines', async (t) => {
  const { engine, err, say } = session();
  t.same(await say('nboard 2'), []);
  t.same(await say('set depth 7'), ['set myname Kibitz7']);
  t.same(await say('ping 3'), ['pong 3']);
  t.same(await say('learn'), ['learned']);
  t.same(await say('set contempt 150'), []);
  t.equal(engine.contemptSetting, 150);
  t.same(await say('frobnicate 1', 'set depth x', 'set colour red', 'set contempt much', 'nboard 1'), []);
  t.equal(err.length, 5, 'each problem is reported on stderr and the line ignored');
  t.match(err.join('\n'), /unknown command "frobnicate 1"[\s\S]*set depth needs[\s\S]*unknown setting[\s\S]*set contempt needs[\s\S]*version 2/);
});

t.test('a game from the start: go answers === move/eval/time, move plays it, passes included', async (t) => {
  // A quarter of a second per go at most: near the end the exact solver would otherwise use its share of a long cap.
  const { say, err } = session({ defaultDepth: 2, maxSeconds: 0.25 });
  await say('nboard 2', 'set depth 2', `set game ${ggfGame([])}`);
  const pos = start();
  let passes = 0;
  // Checked per ply but asserted once: the game's length varies with the clock near its end, the count of checks must not.
  const statusProblems: string[] = [];
  for (let ply = 0; pos.terminal() === NOT_TERMINAL && ply < 70; ply++) {
    const lines = await say('go');
    if (lines[0] !== 'status Kibitz is thinking') statusProblems.push(`ply ${ply}: first line ${lines[0]}`);
    if (lines.at(-1) !== 'status Kibitz is waiting') statusProblems.push(`ply ${ply}: last line ${lines.at(-1)}`);
    const answer = lines.find((l) => l.startsWith('==='));
    const m = ANSWER.exec(answer ?? '');
    if (m === null) {
      t.fail(`ply ${ply}: no answer in ${lines.join(' | ')}`);
      break;
    }
    const move = codeOf(m[1]);
    if (!legalMoves(pos).includes(move)) {
      t.fail(`ply ${ply}: ${m[1]} is not legal`);
      break;
    }
    if (move === PASS_MOVE) passes++;
    pos.makeMove(move);
    await say(`move ${m[1]}/${m[2]}/${m[3]}`);
  }
  t.same(statusProblems, [], 'every go is framed by the thinking and waiting statuses');
  t.equal(pos.terminal() !== NOT_TERMINAL, true, 'the game reached its end');
  t.same(err, [], 'no move was refused');
  const errors = err.length;
  t.comment(`passes in the game: ${passes}`);
  t.same(await say('go'), [], 'go after the end: no answer...');
  t.match(err.at(-1), /go: the game is over/, '... but an error on stderr');
  t.equal(err.length, errors + 1);
});

/** A random game from the start that contains a pass (moves as NBoard text, PA for passes). */
function gameWithPass(): string[] {
  for (let seed = 1; seed < 500; seed++) {
    const rng = new Random(seed);
    const pos = start();
    const moves: string[] = [];
    while (pos.terminal() === NOT_TERMINAL) {
      const legal = legalMoves(pos);
      const move = legal[rng.below(legal.length)];
      moves.push(moveText(move));
      pos.makeMove(move);
      if (move === PASS_MOVE && pos.terminal() === NOT_TERMINAL) {
        // Keep two more moves after the pass, so the record continues past it.
        for (let i = 0; i < 2 && pos.terminal() === NOT_TERMINAL; i++) {
          const after = legalMoves(pos);
          if (after.includes(PASS_MOVE)) break;
          moves.push(moveText(after[0]));
          pos.makeMove(after[0]);
        }
        if (pos.terminal() === NOT_TERMINAL && !legalMoves(pos).includes(PASS_MOVE)) return moves;
        break;
      }
    }
  }
  throw new Error('no random game with a pass');
}

/** GGF with the record's moves, passes written as PA or left out. */
function ggf(moves: readonly string[], keepPasses: boolean): string {
  const colours = moves.map((_, i) => (i % 2 === 0 ? 'B' : 'W'));
  const body = moves.map((m, i) => (m === 'PA' && !keepPasses ? '' : `${colours[i]}[${m}//0.01]`)).join('');
  const board = `${'-'.repeat(27)}O*${'-'.repeat(6)}*O${'-'.repeat(27)} *`;
  return `(;GM[Othello]PC[NBoard]DT[2026-11-25]PB[Black Player]PW[White]RE[?]TI[15:00]TY[8]BO[8 ${board}]${body};)`;
}

t.test('set game: a GGF record with passes, written as PA or left out', async (t) => {
  const moves = gameWithPass();
  t.ok(moves.includes('PA'), `the record has a pass (${moves.length} moves)`);
  const expected = start();
  for (const m of moves) expected.makeMove(codeOf(m));
  for (const keep of [true, false]) {
    const parsed = parseGgf(ggf(moves, keep), othello);
    if (typeof parsed === 'string') {
      t.fail(parsed);
      continue;
    }
    t.same(othello.encodeState(parsed), othello.encodeState(expected), `PA ${keep ? 'written' : 'left out'}: same position`);
    const { say, err } = session();
    const lines = await say('nboard 2', 'set depth 3', `set game ${ggf(moves, keep)}`, 'ping 1', 'go');
    t.same(err, []);
    const answer = ANSWER.exec(lines.find((l) => l.startsWith('===')) ?? '');
    t.ok(answer !== null && legalMoves(expected).includes(codeOf(answer[1])), `a legal answer: ${answer?.[1]}`);
  }
  t.match(parseGgf('(;GM[Othello];)', othello), /no 8x8 board/);
  t.match(parseGgf(ggf(['F5', 'F5'], true), othello), /move 2 \(W\[F5\/\/0.01\]\): F5 is not legal/);
  t.match(parseGgf(ggf(['F5', 'D6', 'D6'], true).replace('B[D6', 'W[D6'), othello), /not (Black|White)'s turn|not legal/);
  t.match(parseGgf(ggf(['Z9'], true), othello), /not a square/);
  const { err, say } = session();
  await say('set game (;GM[Othello];)', 'move K9', 'move A1');
  t.equal(err.length, 3, 'bad games and moves are reported, the position is kept');
  t.same(await say('F5'), [], 'a bare move (NBoard 1.1) is played');
  t.same(err.length, 3);
});

t.test('hint N: the N best moves as search lines, best first, refined each iteration', async (t) => {
  const { say } = session();
  const lines = await say('nboard 2', 'set depth 4', `set game ${ggfGame(['f5', 'd6', 'c3'])}`, 'hint 3');
  const search = lines.filter((l) => l.startsWith('search '));
  t.ok(lines.some((l) => /^nodestats \d+ \d+\.\d\d$/.test(l)), 'nodestats after iterations');
  const last = search.slice(-3);
  t.equal(last.length, 3);
  const pos = parseGgf(ggfGame(['f5', 'd6', 'c3']), othello) as OthelloPosition;
  const firsts = new Set<string>();
  let previous = Infinity;
  for (const line of last) {
    const m = /^search ((?:[A-H][1-8]|PA)(?:-(?:[A-H][1-8]|PA))*) (-?\d+\.\d\d) 0 (\d+)$/.exec(line);
    t.ok(m !== null, line);
    if (m === null) continue;
    t.equal(m[3], '4', 'the last iteration is depth 4');
    t.ok(legalMoves(pos).includes(codeOf(m[1].slice(0, 2))));
    firsts.add(m[1].slice(0, 2));
    t.ok(Number(m[2]) <= previous, 'best first');
    previous = Number(m[2]);
  }
  t.equal(firsts.size, 3, 'three different moves');
  t.equal(lines.at(-1), 'status Kibitz is waiting');
  const many = (await say('hint 99')).filter((l) => l.startsWith('search ')).map((l) => l.split(' ')[1].slice(0, 2));
  t.ok(new Set(many).size >= legalMoves(pos).length, 'hint above the number of moves: every move');
});

// ---- the compiled executable ----

t.test('--help exits 0; a bad option prints one line and exits 2', async (t) => {
  const help = spawnSync(...untracked(process.execPath, [NBOARD, '--help']), { encoding: 'utf8' });
  t.equal(help.status, 0);
  t.match(help.stdout, /usage: kibitz-nboard/);
  const bad = spawnSync(...untracked(process.execPath, [NBOARD, '--depth', '0']), { encoding: 'utf8' });
  t.equal(bad.status, 2);
  t.equal(bad.stderr.trim().split('\n').length, 1);
  t.match(bad.stderr, /--depth must be an integer from 1 to 60/);
});

t.test('ping while thinking stops the search, then pong; quit exits 0', async (t) => {
  const p = new LineProcess(process.execPath, [NBOARD, '--max-seconds', '600']);
  t.teardown(() => p.close());
  p.send('nboard 2');
  p.send('set depth 40');
  t.equal(await p.next(), 'set myname Kibitz40');
  p.send(`set game ${ggfGame(['f5', 'd6', 'c3', 'd3', 'c4'])}`);
  p.send('go');
  await p.next((l) => l === 'status Kibitz is thinking');
  // Let it get going: depth 40 from move 5 would take far longer than this test's timeout.
  await p.next((l) => l.startsWith('nodestats'));
  const sent = Date.now();
  p.send('ping 7');
  await p.next((l) => l === 'pong 7', 60_000);
  t.comment(`pong ${Date.now() - sent} ms after ping`);
  const before = p.lines.slice(0, p.lines.indexOf('pong 7'));
  t.notOk(before.some((l) => l.startsWith('===')), 'the stopped go gives no move');
  t.ok(before.includes('status Kibitz is waiting'), 'thinking ended before pong');
  p.send('set depth 2');
  p.send('go');
  t.match(await p.next((l) => l.startsWith('===')), ANSWER, 'and it thinks again afterwards');
  p.send('quit');
  t.equal(await p.exit(), 0);
});

t.test("the match tools' NBoard client drives the executable (set depth, set game, ping, go)", async (t) => {
  const client = new NBoardClient(`"${process.execPath}" "${NBOARD}" --max-seconds 5`);
  t.teardown(() => client.close());
  await client.setDepth(3);
  const opening = ['f5', 'd6', 'c3', 'd3', 'c4'];
  const answer = await client.bestMove(opening);
  const pos = parseGgf(ggfGame(opening), othello) as OthelloPosition;
  t.ok(legalMoves(pos).includes(codeOf(answer.move)), `a legal move: ${answer.move}`);
  t.type(answer.eval, 'number');
  t.type(answer.engineSeconds, 'number');
});

t.test('--level: go plays a level below the top, the same move for the same seed; a bad level exits 2', async (t) => {
  const moves: string[] = [];
  for (let i = 0; i < 2; i++) {
    const { say } = session({ defaultDepth: 4, maxSeconds: 30, level: 2, seed: 17 });
    await say('nboard 2', `set game ${ggfGame(['f5', 'd6', 'c3', 'd3', 'c4'])}`);
    const answer = (await say('go')).find((line) => ANSWER.test(line));
    t.ok(answer, 'go answers a move');
    moves.push(answer!.match(ANSWER)![1]);
  }
  t.equal(moves[0], moves[1], 'the same seed, the same move');
  const bad = spawnSync(...untracked(process.execPath, [NBOARD, '--level', '0']), { encoding: 'utf8' });
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--level must be an integer from 1 to 8/);
});
