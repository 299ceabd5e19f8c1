/**
 * The Tablut Challenge client end to end against an in-test fake server speaking the Challenge
 * protocol (4-byte big-endian length + UTF-8 JSON; name first; the server sends the state after
 * every move; the side to move answers with {from, to, turn}). The fake server plays the other
 * colour with seeded random legal moves and checks every action the client sends with the rules.
 */
import t from 'tap';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Random } from '../../../src/core/random.js';
import { definition } from '../../../src/games/tablut/index.js';
import { isLegal } from '../../../src/games/tablut/codec.js';
import type { TablutPosition } from '../../../src/games/tablut/position.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { FrameReader, encodeFrame, MAX_FRAME_BYTES } from '../../../src/tablut-client/protocol.js';
import { playChallengeGame } from '../../../src/tablut-client/game.js';
import { runCli } from '../../../src/tablut-client/cli.js';
import { safetyMarginMs } from '../../../src/tablut-client/player.js';

interface FakeGameReport {
  name: unknown;
  illegal: string[];
  clientMoves: number;
  replyMs: number[];
  result: string;
}

/**
 * Starts a fake Challenge server for one game on an ephemeral port. `clientColour` is the side
 * the client plays; after `maxPlies` the fake ends the game with DRAW.
 */
async function fakeServer(clientColour: 'WHITE' | 'BLACK', seed: number, maxPlies: number) {
  const report: FakeGameReport = { name: undefined, illegal: [], clientMoves: 0, replyMs: [], result: '' };
  const rng = new Random(seed);
  let finished!: (r: FakeGameReport) => void;
  const done = new Promise<FakeGameReport>((resolve) => (finished = resolve));
  const server = createServer((socket: Socket) => {
    const reader = new FrameReader();
    const start = definition.decodeState((definition.initialState({}) as any).value, undefined);
    if (!start.ok) throw new Error('initial state');
    const pos: TablutPosition = start.value;
    let named = false;
    let plies = 0;
    let sentAt = 0;
    const sendState = (override?: string) => {
      const state = definition.encodeState(pos) as { board: string[][]; turn: string };
      if (override !== undefined) state.turn = override;
      sentAt = Date.now();
      socket.write(encodeFrame(state));
      if (override !== undefined || pos.terminal() !== NOT_TERMINAL) {
        report.result = state.turn;
        socket.end();
        server.close();
        finished(report);
        return true;
      }
      return false;
    };
    const advance = () => {
      // Plays the fake's moves until it is the client's turn or the game is over.
      for (;;) {
        if (plies >= maxPlies) return sendState('DRAW');
        if (sendState()) return;
        if (definition.sideNames[pos.side] === clientColour) return;
        const buf = new Int32Array(pos.maxMoves);
        const n = pos.generateMoves(buf, 0);
        if (n === 0) return sendState(clientColour + 'WIN');
        pos.makeMove(buf[rng.below(n)]);
        plies++;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      for (const message of reader.push(chunk)) {
        if (!named) {
          named = true;
          report.name = message;
          advance();
          continue;
        }
        report.replyMs.push(Date.now() - sentAt);
        const action = message as { from: string; to: string; turn: string };
        const code = definition.decodeMove(pos, action, 'action');
        if (!code.ok || !isLegal(pos, code.value) || action.turn !== clientColour) {
          report.illegal.push(JSON.stringify(action));
          report.result = `${clientColour === 'WHITE' ? 'BLACK' : 'WHITE'}WIN`;
          socket.end();
          server.close();
          finished(report);
          return;
        }
        report.clientMoves++;
        pos.makeMove(code.value);
        plies++;
        advance();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, done };
}

t.test('frames: split and coalesced chunks, oversized frames', async (t) => {
  const a = encodeFrame({ turn: 'WHITE' });
  const b = encodeFrame('Kibitz');
  t.equal(a.readUInt32BE(0), Buffer.byteLength('{"turn":"WHITE"}'), 'big-endian length prefix');
  const reader = new FrameReader();
  const both = Buffer.concat([a, b]);
  t.same(reader.push(both.subarray(0, 3)), [], 'partial length: nothing yet');
  t.same(reader.push(both.subarray(3, a.length + 2)), [{ turn: 'WHITE' }], 'first frame completes');
  t.same(reader.push(both.subarray(a.length + 2)), ['Kibitz'], 'second frame completes');
  t.equal(reader.buffered, 0);
  const huge = Buffer.alloc(4);
  huge.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
  t.throws(() => new FrameReader().push(huge), /exceeds/);
});

t.test('safety margin: the round trip twice, our own lateness, 3% of the budget; half of very short budgets', async (t) => {
  t.equal(safetyMarginMs(3_000), 290, '-t 3 on loopback: think 2.71 s');
  t.equal(safetyMarginMs(3_000, 40), 370, 'a 40 ms round trip counts twice');
  t.equal(safetyMarginMs(60_000), 2_000, '-t 60: think 58 s');
  t.equal(safetyMarginMs(300), 150, 'short budgets keep half');
});

t.test('plays WHITE to the end against a random BLACK: legal moves only, and wins', async (t) => {
  const fake = await fakeServer('WHITE', 7, 200);
  const outcome = await playChallengeGame({ colour: 'WHITE', secondsPerMove: 0.3, host: '127.0.0.1', port: fake.port, ttMb: 8 });
  const report = await fake.done;
  t.equal(report.name, 'Kibitz', 'the client sends its name (default Kibitz) as a JSON string first');
  t.same(report.illegal, [], 'no illegal action');
  t.equal(outcome.result, report.result, 'client and server agree on the result');
  t.equal(outcome.result, 'WHITEWIN');
  t.equal(outcome.won, true);
  t.equal(outcome.movesSent, report.clientMoves);
});

t.test('plays BLACK against a random WHITE without losing, legal moves only', async (t) => {
  const fake = await fakeServer('BLACK', 11, 120);
  const outcome = await playChallengeGame({ colour: 'BLACK', secondsPerMove: 0.3, host: '127.0.0.1', port: fake.port, ttMb: 8, name: 'KibitzB' });
  const report = await fake.done;
  t.equal(report.name, 'KibitzB');
  t.same(report.illegal, []);
  t.equal(outcome.result, report.result);
  t.not(outcome.result, 'WHITEWIN', 'the engine does not lose to random play');
  t.ok(report.clientMoves > 0);
});

t.test('answers within the time per move, as the Challenge server counts it (1 s)', async (t) => {
  const fake = await fakeServer('WHITE', 3, 8);
  const lines: string[] = [];
  const outcome = await playChallengeGame({ colour: 'WHITE', secondsPerMove: 1, host: '127.0.0.1', port: fake.port, ttMb: 8, log: (l) => lines.push(l) });
  const report = await fake.done;
  t.equal(outcome.result, report.result);
  t.ok(report.replyMs.length >= 3, 'several moves played');
  // The server reads the move in a thread and checks it after each whole second of sleep: a move
  // read within -t x 1000 ms of the state's write is in time. The client thinks 1000 - 230 ms (plus
  // twice the loopback round trip, under a ms), so the margin is the slack here.
  t.equal(1000 - safetyMarginMs(1000), 770, 'think budget = time per move - margin');
  const measured = /round trip (\d+\.\d) ms: thinking (\d+) ms per move/.exec(lines[0]);
  t.ok(measured !== null, 'the client reports the measured round trip and its think time');
  if (measured !== null) {
    // Loopback: well under a ms, unless a busy machine delays the connect callback (a wider margin).
    const roundTrip = Number(measured[1]);
    t.ok(Math.abs(Number(measured[2]) - (1000 - safetyMarginMs(1000, roundTrip))) <= 1, 'think time = 1 s - the margin for that round trip');
  }
  t.ok(Math.max(...report.replyMs) < 1000, `every move read before the server's 1 s check (max ${Math.max(...report.replyMs)} ms)`);
});

t.test('cli: --help exits 0, usage errors exit 2 in one line; a whole game exits 0 with the result printed', async (t) => {
  const lines: string[] = [];
  t.equal(await runCli(['GREEN', '60', 'localhost'], () => {}, (l) => lines.push(l)), 2);
  t.same(lines, ["tablut-client: colour must be WHITE or BLACK, got 'GREEN' (try --help)"]);
  t.equal(await runCli(['WHITE', 'abc', 'localhost'], () => {}, () => {}), 2);
  t.equal(await runCli(['WHITE', '60'], () => {}, () => {}), 2);
  t.equal(await runCli(['WHITE', '1', 'localhost', '--port', '99999'], () => {}, () => {}), 2);
  t.equal(await runCli(['WHITE', '1', 'localhost', '--bogus'], () => {}, () => {}), 2);
  lines.length = 0;
  t.equal(await runCli(['WHITE', '1', 'localhost', '--threads', '0'], () => {}, (l) => lines.push(l)), 2);
  t.same(lines, ["tablut-client: --threads must be an integer from 1 to 256, got '0' (try --help)"]);

  const fake = await fakeServer('BLACK', 5, 6);
  const out: string[] = [];
  const code = await runCli(['black', '0.2', '127.0.0.1', '--port', String(fake.port), '--name', 'Cli', '--threads', '2'], (l) => out.push(l));
  const report = await fake.done;
  t.equal(code, 0);
  t.equal(report.name, 'Cli');
  t.match(out[0], /thinking \d+ ms per move on 2 threads\)$/, 'a Lazy SMP search of two threads');
  t.same(report.illegal, []);
  t.match(out[out.length - 1], /^result: DRAW \(Cli as BLACK draw/);
});

t.test('a server that disappears mid-game is reported, not hung on', async (t) => {
  const server = createServer((socket) => {
    socket.once('data', () => {
      socket.write(encodeFrame((definition.initialState({}) as any).value).subarray(0, 10));
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const outcome = await playChallengeGame({ colour: 'BLACK', secondsPerMove: 1, host: '127.0.0.1', port });
  server.close();
  t.equal(outcome.result, 'DISCONNECTED');
  const lines: string[] = [];
  t.equal(await runCli(['WHITE', '1', '127.0.0.1', '--port', String(port)], (l) => lines.push(l)), 1, 'nothing listens any more');
  t.match(lines.join('\n'), /error/);
});
