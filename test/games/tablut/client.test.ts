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

t.test('safety margin keeps the search well inside the server limit', async (t) => {
  t.equal(safetyMarginMs(60_000), 5_000, '60 s per move: answer within 55 s');
  t.equal(safetyMarginMs(1_000), 500, 'short budgets keep half');
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

t.test('answers within the time per move (1 s, generous slack)', async (t) => {
  const fake = await fakeServer('WHITE', 3, 8);
  const outcome = await playChallengeGame({ colour: 'WHITE', secondsPerMove: 1, host: '127.0.0.1', port: fake.port, ttMb: 8 });
  const report = await fake.done;
  t.equal(outcome.result, report.result);
  t.ok(report.replyMs.length >= 3, 'several moves played');
  // 1 s per move keeps a 0.5 s margin (safetyMarginMs), so the engine thinks 0.5 s at most: every
  // reply must land before the server's 1 s limit, with the margin as slack.
  t.equal(1000 - safetyMarginMs(1000), 500, 'think budget = time per move - margin');
  t.ok(Math.max(...report.replyMs) < 1000, `every reply under the 1 s limit (max ${Math.max(...report.replyMs)} ms)`);
});

t.test('cli: --help exits 0, usage errors exit 2 in one line; a whole game exits 0 with the result printed', async (t) => {
  const lines: string[] = [];
  t.equal(await runCli(['GREEN', '60', 'localhost'], () => {}, (l) => lines.push(l)), 2);
  t.same(lines, ["tablut-client: colour must be WHITE or BLACK, got 'GREEN' (try --help)"]);
  t.equal(await runCli(['WHITE', 'abc', 'localhost'], () => {}, () => {}), 2);
  t.equal(await runCli(['WHITE', '60'], () => {}, () => {}), 2);
  t.equal(await runCli(['WHITE', '1', 'localhost', '--port', '99999'], () => {}, () => {}), 2);
  t.equal(await runCli(['WHITE', '1', 'localhost', '--bogus'], () => {}, () => {}), 2);

  const fake = await fakeServer('BLACK', 5, 6);
  const out: string[] = [];
  const code = await runCli(['black', '0.2', '127.0.0.1', '--port', String(fake.port), '--name', 'Cli'], (l) => out.push(l));
  const report = await fake.done;
  t.equal(code, 0);
  t.equal(report.name, 'Cli');
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
