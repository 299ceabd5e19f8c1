/**
 * pbrain-kibitz, the Gomocup / Piskvork brain: the protocol in-process (GomocupBrain), then the
 * compiled executable driven by scripted manager sessions over its pipes.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { GomocupBrain } from '../../src/adapters/gomocup/brain.js';
import { MnkPosition } from '../../src/games/mnk/position.js';
import { NOT_TERMINAL, RESULT_LOSS } from '../../src/search/score.js';
import { LineProcess } from '../../tools/line-process.js';
import { compareRecords, comparedReport, playGame, startBrain, type RecordedGame } from '../../tools/pbrain-match.js';
import { untracked } from '../support/untracked.js';
import { fromRoot } from '../support/paths.js';

/** The compiled executable (npm test builds first). */
const KIBITZ_BRAIN = fromRoot('dist/src/adapters/pbrain.js');

/** An in-process brain and the lines it wrote since the last call. */
function brain(options: ConstructorParameters<typeof GomocupBrain>[1] = {}) {
  const out: string[] = [];
  const b = new GomocupBrain((line) => out.push(line), options);
  const say = (...lines: string[]): string[] => {
    out.length = 0;
    for (const line of lines) b.handle(line);
    return out.filter((l) => !/^(MESSAGE|DEBUG) /.test(l));
  };
  return { b, out, say };
}

const MOVE = /^\d+,\d+$/;

t.test('START, RECTSTART, RESTART, ABOUT and unknown commands', async (t) => {
  const { say } = brain();
  t.same(say('ABOUT'), ['name="pbrain-kibitz", version="0.1.0", author="Kibitz"']);
  t.match(say('BEGIN')[0], /^ERROR BEGIN before START/);
  t.match(say('START 4')[0], /^ERROR unsupported board size 4x4/);
  t.match(say('START 101')[0], /^ERROR unsupported board size/);
  t.match(say('START twenty')[0], /^ERROR START needs a board size/);
  t.match(say('RESTART')[0], /^ERROR RESTART before START/);
  t.same(say('START 20'), ['OK']);
  t.same(say('start 20\r\n'), ['OK'], 'commands are read case-insensitively, CR LF stripped');
  t.same(say('RECTSTART 30,20'), ['OK']);
  t.match(say('RECTSTART 30')[0], /^ERROR RECTSTART needs width,height/);
  t.match(say('RECTSTART 30,2')[0], /^ERROR unsupported board size 30x2/);
  t.same(say('RESTART'), ['OK']);
  t.match(say('RESTART now')[0], /^ERROR RESTART takes no arguments/);
  t.match(say('FLY 3,3')[0], /^UNKNOWN command 'FLY'/);
  t.same(say('', '   '), [], 'empty lines are ignored');
});

t.test('RECTSTART: X is the column (width), Y the row (height)', async (t) => {
  const { say } = brain({ defaultTurnMs: 200 });
  say('RECTSTART 12,6');
  // Own stones on row Y=5 at X=7..10: the win is at X=6 or X=11 on that row.
  const reply = say('BOARD', '7,5,1', '8,5,1', '9,5,1', '10,5,1', '0,0,2', '1,0,2', '0,1,2', '11,0,2', 'DONE');
  t.ok(['6,5', '11,5'].includes(reply[0]), `completes the row: ${reply[0]}`);
  t.match(say('TURN 12,0')[0], /^ERROR TURN 12,0 is off the 12x6 board/);
  t.match(say('TURN 3,6')[0], /^ERROR TURN 3,6 is off the 12x6 board/);
});

t.test('TURN, TAKEBACK and PLAY keep the board; bad coordinates are errors', async (t) => {
  const { say } = brain({ defaultTurnMs: 100 });
  say('START 15');
  const first = say('TURN 7,7');
  t.match(first[0], MOVE);
  t.match(say('TURN 7,7')[0], /^ERROR TURN 7,7: that square is already taken/);
  t.match(say(`TURN ${first[0]}`)[0], /already taken/, 'the brain remembers its own stone');
  t.same(say(`TAKEBACK ${first[0]}`), ['OK']);
  t.same(say('TAKEBACK 7,7'), ['OK']);
  t.match(say('TAKEBACK 7,7')[0], /^ERROR TAKEBACK 7,7: that square is empty/);
  t.match(say('TAKEBACK 7')[0], /^ERROR TAKEBACK needs X,Y/);
  t.match(say('TURN 7,7')[0], MOVE, 'the square is free again');
  t.same(say('PLAY 0,0'), ['0,0'], 'PLAY puts our stone where the manager says');
  t.match(say('PLAY 0,0')[0], /already taken/);
  t.match(say('TURN -1,3')[0], /^ERROR TURN needs X,Y/);
});

t.test('BOARD ... DONE replaces the board; bad lines are reported at DONE', async (t) => {
  const { say } = brain({ defaultTurnMs: 200 });
  say('START 15');
  // The opponent (2) has an open four on row 3: X = 4..7; we must block at 3,3 or 8,3 (and lose
  // anyway), unless we have a win: we have four on column 10 (Y = 5..8) -> 10,4 or 10,9 wins.
  const win = say('BOARD', '4,3,2', '5,3,2', '6,3,2', '7,3,2', '10,5,1', '10,6,1', '10,7,1', '10,8,1', 'DONE');
  t.ok(['10,4', '10,9'].includes(win[0]), `takes the win first: ${win[0]}`);
  const block = say('RESTART', 'BOARD', '4,3,2', '5,3,2', '6,3,2', '1,1,1', '12,12,1', '1,12,1', 'DONE');
  t.same(block[0], 'OK');
  t.ok(['3,3', '7,3', '8,3', '2,3'].includes(block[1]), `blocks the open three: ${block[1]}`);
  t.match(say('BOARD', '1,1,1', 'oops', '2,2,2', 'DONE')[0], /^ERROR BOARD line 'oops' is not X,Y,field/);
  t.match(say('BOARD', '1,1,3', 'DONE')[0], /field 3 belongs to the continuous game/);
  t.match(say('BOARD', '1,1,4', 'DONE')[0], /field must be 1/);
  t.match(say('BOARD', '1,1,1', '1,1,2', 'DONE')[0], /square 1,1 is listed twice/);
  t.match(say('BOARD', '15,1,1', 'DONE')[0], /off the 15x15 board/);
  t.match(say('BOARD now')[0] ?? say('DONE')[0], /BOARD takes no arguments/);
  t.match(say('SWAP2BOARD', '7,7', 'DONE')[0], /^ERROR SWAP2BOARD .* not supported/);
  t.match(say('BOARD', 'DONE')[0], MOVE, 'an empty BOARD is a first move');
});

t.test('INFO: limits, memory, rules (renju and caro answered with ERROR at the next move)', async (t) => {
  const { b, say } = brain();
  say('START 15');
  t.same(say('INFO timeout_turn 3000', 'INFO timeout_match 180000', 'INFO time_left 100000', 'INFO max_memory 83886080'), [], 'INFO has no answer');
  say('INFO game_type 2', 'INFO folder /tmp/brains', 'INFO evaluate 3,3', 'INFO timeout_turn soon', 'INFO');
  t.same(
    { ...b.info },
    { timeoutTurn: 3000, timeoutMatch: 180000, timeLeft: 100000, maxMemory: 83886080, rule: 0, gameType: 2, folder: '/tmp/brains' },
  );
  // min(3000, 100000 / 15) = 3000, less 50 ms and 2 %.
  t.equal(b.budgetMs(), 2890);
  say('INFO time_left 15000');
  t.equal(b.budgetMs(), 930, 'time_left / 15 = 1000, less 50 and 2 %');
  say('INFO time_left -200');
  t.equal(b.budgetMs(), 5, 'out of match time: the smallest budget');
  say('INFO time_left 2147483647', 'INFO timeout_turn 0');
  t.equal(b.budgetMs(), 20, 'timeout_turn 0: as fast as possible');
  t.match(say('BEGIN')[0], MOVE);
  t.equal(b.lastMove?.depth !== undefined && b.lastMove.depth <= 2, true, 'a 2-ply search at most');
  const unsupported = [[4, /renju is not supported/], [8, /caro is not supported/], [2, /continuous game/], [5, /renju/], [16, /unknown rule bits/]] as const;
  for (const [rule, text] of unsupported) {
    say('RESTART', `INFO rule ${rule}`);
    t.match(say('BEGIN')[0], text, `rule ${rule}`);
    t.match(say('TURN 3,3')[0], text);
  }
  say('RESTART', 'INFO rule 1');
  t.match(say('BEGIN')[0], MOVE, 'rule 1 is supported');
});

t.test('rule 1: an overline is not a win, exactly five is; rule 0: the overline wins', async (t) => {
  // Ours on row 7: X = 3,4,5,6 and 8 -> 7,7 makes six (2,7 is the opponent's). The opponent has
  // four on row 1 (X = 2..5, 1,1 and 6,1 open: two winning squares).
  const stones = ['2,7,2', '3,7,1', '4,7,1', '5,7,1', '6,7,1', '8,7,1', '2,1,2', '3,1,2', '4,1,2', '5,1,2', '0,14,2', '14,14,2', '14,0,2'];
  const free = brain({ defaultTurnMs: 300 });
  free.say('START 15', 'INFO rule 0');
  t.same(free.say('BOARD', ...stones, 'DONE'), ['7,7'], 'freestyle: six in a row wins');
  const exact = brain({ defaultTurnMs: 300 });
  exact.say('START 15', 'INFO rule 1');
  const reply = exact.say('BOARD', ...stones, 'DONE');
  t.not(reply[0], '7,7', 'exactly five: the overline square is no win');
  t.ok(['1,1', '6,1'].includes(reply[0]), `so it blocks one of the four's ends: ${reply[0]}`);
  // Exactly five is still found: ours on X = 3..6 of row 7 with 8,7 moved away.
  exact.say('RESTART');
  const five = exact.say('BOARD', ...stones.filter((s) => s !== '8,7,1'), '9,9,1', 'DONE');
  t.same(five, ['7,7'], 'exactly five wins');
});

t.test('a full board is an error; a finished game still gets a legal move', async (t) => {
  const { say } = brain({ defaultTurnMs: 50 });
  say('START 5');
  const lines: string[] = [];
  for (let y = 0; y < 5; y++) for (let x = 0; x < 5; x++) lines.push(`${x},${y},${((x + 2 * y) % 4 < 2 ? 1 : 2)}`);
  t.match(say('BOARD', ...lines, 'DONE')[0], /^ERROR the board is full/);
  const won = say('BOARD', '0,0,2', '1,0,2', '2,0,2', '3,0,2', '4,0,2', '0,2,1', '1,2,1', 'DONE');
  t.match(won[0], MOVE, 'the opponent already has five: any empty square');
  t.not(won[0].split(',')[1], '0');
  t.same(say('END', 'ABOUT'), [], 'nothing is answered after END');
});

t.test('MESSAGE and DEBUG lines report depth, score and the principal variation', async (t) => {
  const { out, say } = brain({ defaultTurnMs: 300 });
  say('START 15', 'TURN 7,7');
  const message = /^MESSAGE depth \d+ (score -?\d+|win in \d+ plies|loss in \d+ plies) pv [\d, ]+ nodes \d+ time \d+\/\d+ ms$/;
  t.match(out.find((l) => l.startsWith('MESSAGE')), message);
  t.ok(out.some((l) => /^DEBUG depth 1 /.test(l)));
  t.match(out.at(-1), MOVE, 'the move comes last');
});

// ---- the compiled executable, driven over its pipes ----

t.test('--help exits 0; a bad option prints one line and exits 2', async (t) => {
  const help = spawnSync(...untracked(process.execPath, [KIBITZ_BRAIN, '--help']), { encoding: 'utf8' });
  t.equal(help.status, 0);
  t.match(help.stdout, /usage: pbrain-kibitz/);
  const bad = spawnSync(...untracked(process.execPath, [KIBITZ_BRAIN, '--turn-ms', 'soon']), { encoding: 'utf8' });
  t.equal(bad.status, 2);
  t.equal(bad.stderr.trim().split('\n').length, 1);
  t.match(bad.stderr, /--turn-ms must be an integer/);
});

t.test('the first move counts its budget from the process start when that start is within one turn', async (t) => {
  // A fixed clock: every reading is 10,300 ms. The process "started" at 10,000: the first move's
  // clock starts there, so the move reports 300 ms used; the second counts from its own command (0 ms).
  const started = brain({ now: () => 10_300, processStart: 10_000 });
  started.say('START 15', 'INFO timeout_turn 1000');
  t.match(started.say('BEGIN')[0], MOVE);
  t.equal(started.b.lastMove?.elapsedMs, 300, 'the start-up is charged to the first turn');
  t.match(started.say('TURN 0,0')[0], MOVE);
  t.equal(started.b.lastMove?.elapsedMs, 0, 'later turns count from their command');
  // A start more than a turn before the first command (an interactive manager): not charged.
  const old = brain({ now: () => 10_300, processStart: 5_000 });
  old.say('START 15', 'INFO timeout_turn 1000');
  old.say('BEGIN');
  t.equal(old.b.lastMove?.elapsedMs, 0);
});

t.test('a whole game against a scripted opponent, as a manager plays it', async (t) => {
  const brainProcess = new LineProcess(process.execPath, [KIBITZ_BRAIN]);
  t.teardown(() => brainProcess.close());
  // The scripted opponent fills the board from the top-left corner, row by row: it never blocks.
  let next = 0;
  const kibitz = { name: 'kibitz', process: brainProcess, timeLeft: 0, moveMs: [] as number[] };
  const options = { size: 15, turnMs: 300, matchMs: 60000, rule: 0 };
  await startBrain(kibitz, options);
  const pos = new MnkPosition(15, 15, 5, new Uint8Array(225), 0);
  brainProcess.send('BEGIN');
  for (;;) {
    const reply = await brainProcess.next((l) => !/^(MESSAGE|DEBUG) /.test(l));
    t.match(reply, MOVE);
    const [x, y] = reply.split(',').map(Number);
    t.equal(pos.cells[y * 15 + x], 0, `${reply} is empty`);
    pos.makeMove(y * 15 + x);
    if (pos.terminal() !== NOT_TERMINAL) break;
    const cell = pos.cells.indexOf(0);
    const [ox, oy] = [cell % 15, Math.floor(cell / 15)];
    next++;
    pos.makeMove(cell);
    brainProcess.send(`INFO time_left ${60000 - 300 * next}`);
    brainProcess.send(`TURN ${ox},${oy}`);
  }
  t.equal(pos.terminal(), RESULT_LOSS, 'the brain made five');
  t.ok(next <= 10, `within a few moves (${next} opponent moves)`);
  brainProcess.send('END');
  t.equal(await brainProcess.exit(), 0, 'END: the brain exits by itself with code 0');
});

t.test('two brains play a game through the match tool (BOARD after an opening, time_left)', async (t) => {
  const sides = [0, 1].map((i) => ({ name: `k${i}`, process: new LineProcess(process.execPath, [KIBITZ_BRAIN]), timeLeft: 0, moveMs: [] as number[] }));
  t.teardown(async () => {
    for (const side of sides) await side.process.close();
  });
  const options = { size: 10, turnMs: 150, matchMs: 30000, rule: 1, opening: [[4, 4], [5, 5], [4, 6]] as [number, number][] };
  for (const side of sides) await startBrain(side, options);
  const result = await playGame([sides[0], sides[1]], options);
  t.match(result.reason, /made five|board full/);
  t.ok(result.moves.length > 5);
  t.ok(sides.every((s) => s.timeLeft < 30000 && s.moveMs.length > 0), 'the match clocks ran');
});

/**
 * A brain with Rapfi's race (Rapfi/command/gomocup.cpp, runProtocol: a command read while its 'thinking' flag is
 * still set is dropped, END excepted): for busyMs after each answer it drops what it reads, so a TURN sent then loses its
 * keyword and the coordinates are read as a command. It plays the first empty cell in row order.
 */
const racyBrain = (busyMs: number) => `
const rl = require('node:readline').createInterface({ input: process.stdin });
let size = 0, board = [], busyUntil = 0, inBoard = false;
const say = (l) => process.stdout.write(l + '\\r\\n');
const play = () => { const c = board.indexOf(0); board[c] = 1; busyUntil = Date.now() + ${busyMs}; say((c % size) + ',' + Math.floor(c / size)); };
const put = (x, y) => { board[Number(y) * size + Number(x)] = 2; };
rl.on('line', (line) => {
  const [cmd, arg] = line.trim().split(' ');
  if (cmd === 'END') process.exit(0);
  if (Date.now() < busyUntil) { if (arg !== undefined) say('ERROR Unknown command: ' + arg); return; }
  if (inBoard) {
    if (cmd === 'DONE') { inBoard = false; play(); } else { const [x, y, who] = cmd.split(','); board[Number(y) * size + Number(x)] = Number(who); }
    return;
  }
  if (cmd === 'START') { size = Number(arg); board = new Array(size * size).fill(0); say('OK'); }
  else if (cmd === 'BEGIN') play();
  else if (cmd === 'BOARD') inBoard = true;
  else if (cmd === 'TURN') { put(...arg.split(',')); play(); }
});`;

t.test("the referee's settle gap: a brain with Rapfi's race loses its TURN without it, plays on with it", async (t) => {
  // Busy for 3 s, a TURN sent at once certainly arrives inside it; busy for 20 ms and a gap of 120 ms, never:
  // the referee reads an answer after the brain wrote it, so the gap starts after the busy time did.
  const play = async (busyMs: number, settleMs: number) => {
    const sides = [0, 1].map((i) => {
      const racy = new LineProcess(process.execPath, ['-e', racyBrain(busyMs)]);
      return { name: `racy${i}`, process: racy, timeLeft: 0, moveMs: [] as number[] };
    });
    const options = { size: 6, turnMs: 1000, matchMs: 0, rule: 0, settleMs };
    for (const side of sides) await startBrain(side, options);
    const result = await playGame([sides[0], sides[1]], options);
    for (const side of sides) {
      side.process.send('END');
      await side.process.exit();
    }
    return result;
  };
  const racing = await play(3000, 0);
  t.equal(racing.reason, "racy0 answered 'ERROR Unknown command: 1,0'", 'the second brain answers at once: the first loses its TURN');
  t.equal(racing.winner, 1);
  t.equal(racing.moves.length, 2);
  // Both fill row by row: column 0 of a 6-wide board is all the first brain's by its 13th stone (cells 0, 6, ..., 24).
  const settled = await play(20, 120);
  t.equal(settled.reason, 'racy0 made five');
  t.equal(settled.moves.length, 25);
});

t.test('a session with BOARD restart, TAKEBACK and malformed lines never crashes', async (t) => {
  const p = new LineProcess(process.execPath, [KIBITZ_BRAIN, '--turn-ms', '100']);
  t.teardown(() => p.close());
  const reply = () => p.next((l) => !/^(MESSAGE|DEBUG) /.test(l));
  p.send('START 15');
  t.equal(await reply(), 'OK');
  p.send('TURN 7,7');
  const first = await reply();
  t.match(first, MOVE);
  p.send(`TAKEBACK ${first}`);
  t.equal(await reply(), 'OK');
  p.send('TAKEBACK 7,7');
  t.equal(await reply(), 'OK');
  p.send('TURN 3,3');
  t.match(await reply(), MOVE, 'plays on after the takebacks');
  for (const bad of ['TURN', 'TURN 99,99', 'TURN a,b', 'BOARDX', '7,7,1', 'TAKEBACK 14,14', 'START']) {
    p.send(bad);
    t.match(await reply(), /^(ERROR|UNKNOWN) /, `'${bad}' is answered with an error`);
  }
  p.send('INFO rule');
  p.send('INFO nonsense 12');
  p.send('ABOUT');
  t.match(await reply(), /^name=/, 'a malformed or unknown INFO is silent (INFO is never answered)');
  p.send('RESTART');
  t.equal(await reply(), 'OK');
  p.send('BOARD');
  for (const line of ['7,7,1', '8,7,1', '9,7,1', '10,7,1', '7,8,2', '8,8,2', '9,8,2', '10,9,2']) p.send(line);
  p.send('DONE');
  t.ok(['6,7', '11,7'].includes(await reply()), 'after RESTART + BOARD it wins at once');
  p.send('ABOUT');
  t.match(await reply(), /^name="pbrain-kibitz"/);
  p.send('END');
  t.equal(await p.exit(), 0);
  t.same(p.stderr, [], 'nothing on stderr');
});

t.test('--level: a level below the top answers a legal move, the same one for the same seed; a bad level exits 2', async (t) => {
  const answers: string[] = [];
  for (let i = 0; i < 2; i++) {
    const { say } = brain({ level: 3, seed: 5 });
    t.same(say('START 15'), ['OK']);
    const reply = say('TURN 7,7');
    t.equal(reply.length, 1);
    t.match(reply[0], MOVE);
    t.not(reply[0], '7,7', 'not the occupied square');
    answers.push(reply[0]);
  }
  t.equal(answers[0], answers[1]);
  const bad = spawnSync(...untracked(process.execPath, [KIBITZ_BRAIN, '--level', '9']), { encoding: 'utf8' });
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--level must be an integer from 1 to 8/);
});

t.test('pbrain-match --paired: each record scored over its opening pairs, and their difference pair by pair', async (t) => {
  // Two openings of seed 5 (games 1-2 and 3-4) and one of seed 6; brain A plays black in odd games.
  const game = (g: number, seed: number, aWins: boolean | null, reason = 'made five'): RecordedGame => {
    const black = g % 2 === 1 ? 'A (new)' : 'B (opponent)';
    const aColour = g % 2 === 1 ? 0 : 1;
    return { game: g, seed, black, winner: aWins === null ? -1 : aWins ? aColour : 1 - aColour, reason };
  };
  const control = [game(1, 5, false), game(2, 5, false), game(3, 5, true), game(4, 5, false), game(1, 6, false), game(2, 6, false)];
  // The candidate: opening 1 won once, opening 2 drawn twice, seed 6 won once by the opponent's time forfeit; an
  // unfinished pair (game 1 of seed 7 only) is left out.
  const candidate = [
    game(1, 5, true), game(2, 5, false), game(3, 5, null), game(4, 5, null),
    game(1, 6, true, 'B (opponent) took 2301 ms'), game(2, 6, false), game(1, 7, true),
  ];
  const c = compareRecords(control, candidate);
  t.same([c.first.pairs, c.first.mean], [3, (0 + 0.5 + 0) / 3], 'control: 0, 1/2, 0 over three pairs');
  t.same([c.second.pairs, c.second.mean], [3, (0.5 + 0.5 + 0.5) / 3], 'candidate: 1/2 in each of three pairs');
  t.equal(c.paired.pairs, 3);
  t.equal(c.paired.mean, (0.5 + 0 + 0.5) / 3, 'differences +1/2, 0, +1/2');
  t.same([c.pairedNoForfeit.pairs, c.pairedNoForfeit.mean], [2, 0.25], 'without the pair the forfeit decided: +1/2, 0');
  const lines = comparedReport('ctl.jsonl', 'new.jsonl', c);
  t.equal(lines[0], 'ctl.jsonl: A scored 16.7% ± 32.7 over 3 opening pairs', 'scores 0, 1/2, 0: sd 0.289, 1.96 x 0.289 / sqrt 3');
  t.equal(lines[1], 'new.jsonl: A scored 50.0% ± 0.0 over 3 opening pairs');
  t.equal(lines[2], 'paired (second - first) over 3 opening pairs: +33.3 ± 32.7 points (95%)');
  t.equal(lines[3], 'without the pairs a time forfeit decided (2 pairs): +25.0 ± 49.0 points', 'differences 1/2, 0: 1.96 x 0.354 / sqrt 2');
  // Records of other seeds share no pair: their difference is not a number to print.
  const apart = comparedReport('a', 'b', compareRecords(control.slice(0, 2), candidate.slice(4, 6)));
  t.same(apart, [
    'a: A scored 0.0% (no error bar below two pairs) over 1 opening pairs',
    'b: A scored 50.0% (no error bar below two pairs) over 1 opening pairs',
    'paired: no opening pair in both records (their seeds or openings differ)',
  ]);
});
