/**
 * Oversized and slow bodies over a real socket (the server listens on port 0): every client gets
 * the 413 BODY_TOO_LARGE body (Node's fetch, curl, a raw socket that keeps sending), the rest of
 * the body is drained within bounds and the connection closed; a client too slow to send its
 * request gets 408 REQUEST_TIMEOUT. Timing assertions only bound hangs (generous slack).
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../support/server-process.js';

const PATH = '/v1/games/mnk/legal-moves';
const FIVE_MB = 5 * 1024 * 1024;

/**
 * The real server in its own process: with client and server on one event loop the race below
 * (the server's reset overtaking its answer) hardly ever shows.
 */
async function listening(env: Record<string, string> = {}): Promise<{ app: { close(): Promise<unknown> }; port: number; url: string }> {
  const server = await startServerProcess(env, { untracked: true });
  return { app: { close: () => server.stop() }, port: server.port, url: server.url };
}

/** One default server for the tests that need no settings of their own (a start costs seconds under CI load). */
let shared: ReturnType<typeof listening> | undefined;
function defaultServer(): ReturnType<typeof listening> {
  shared ??= listening();
  return shared;
}
t.teardown(async () => {
  if (shared !== undefined) await (await shared).app.close();
});

interface RawResult {
  /** Everything the server sent. */
  readonly received: string;
  /** Body bytes the client managed to hand to its socket. */
  readonly sent: number;
  /** How the connection ended for the client: 'close' (clean) or an error code. */
  readonly ending: string;
  readonly ms: number;
}

/**
 * A raw client that sends the head, then body chunks (every `gapMs`, or as fast as the socket takes
 * them, reading between chunks) until `bodyBytes` are sent or the connection ends. It keeps sending after the server's FIN
 * (allowHalfOpen), as a hostile or naive client would.
 */
function rawPost(port: number, head: string, bodyBytes: number, opts: { chunk?: number; gapMs?: number } = {}): Promise<RawResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let received = '';
    let sent = 0;
    let ending = 'close';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (ending = e.code ?? 'error'));
    socket.on('close', () => {
      if (timer !== undefined) clearTimeout(timer);
      resolve({ received, sent, ending, ms: Date.now() - started });
    });
    socket.write(head);
    const chunk = Buffer.alloc(opts.chunk ?? 64 * 1024, 0x20);
    const pump = (): void => {
      if (sent >= bodyBytes && !socket.destroyed) socket.end();
      while (!socket.destroyed && sent < bodyBytes) {
        sent += chunk.length;
        const more = socket.write(chunk);
        if (opts.gapMs !== undefined) {
          timer = setTimeout(pump, opts.gapMs);
          return;
        }
        if (!more) {
          socket.once('drain', pump);
          return;
        }
        // Yield between chunks: the event loop's poll phase (the server's answer read) runs before the next write.
        // Writing in one synchronous loop, a write's EPIPE after the server's close could destroy the socket before the
        // answer already in its receive buffer was read (a rare CI failure under load).
        setImmediate(pump);
        return;
      }
      if (!socket.destroyed) socket.end();
    };
    pump();
  });
}

function head(contentLength: number, extra = ''): string {
  return `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n${extra}\r\n`;
}

/** The status line and JSON body of the first response in a raw byte stream. */
function parseResponse(raw: string): { status: number; headers: string; body: Record<string, unknown> | undefined } {
  const end = raw.indexOf('\r\n\r\n');
  const headers = end < 0 ? raw : raw.slice(0, end);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? -1);
  if (end < 0 || length < 0) return { status, headers, body: undefined };
  const text = raw.slice(end + 4, end + 4 + length);
  try {
    return { status, headers, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status, headers, body: undefined };
  }
}

t.test('Node fetch: a 5 MB body gets 413 BODY_TOO_LARGE every time, sent whole or streamed', async (t) => {
  const { url } = await defaultServer();
  const big = 'x'.repeat(FIVE_MB);
  const outcomes: Record<string, number> = {};
  const one = async (streamed: boolean): Promise<void> => {
    let outcome: string;
    try {
      const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { 'content-type': 'application/json' }, body: big };
      if (streamed) {
        init.body = new Blob([big]).stream();
        init.duplex = 'half';
      }
      const res = await fetch(`${url}${PATH}`, init);
      const body = (await res.json()) as { code?: string };
      outcome = `${res.status} ${body.code}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      outcome = `error ${cause?.code ?? cause?.message ?? String(error)}`;
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  };
  // One after another (without the lingering close, over half of these ended in EPIPE) ...
  for (let i = 0; i < 6; i++) await one(i % 2 === 1);
  // ... and several at once, which keeps the server busy while the bodies arrive.
  await Promise.all([one(false), one(true), one(false), one(true)]);
  t.same(outcomes, { '413 BODY_TOO_LARGE': 10 }, 'every request answered with the 413 body');
});

t.test('curl: a 5 MB body gets the 413 JSON body', async (t) => {
  const { url } = await defaultServer();
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-body-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'big.json');
  writeFileSync(file, 'x'.repeat(FIVE_MB));
  for (const expect of ['', 'Expect:']) {
    const args = ['-sS', '-H', 'content-type: application/json', '--data-binary', `@${file}`, '-w', '\n%{http_code}', `${url}${PATH}`];
    if (expect !== '') args.push('-H', expect); // curl sends Expect: 100-continue for big bodies; also try without
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile('curl', args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? 1), stdout, stderr }),
      );
    });
    t.equal(out.code, 0, `curl exits 0 ${expect === '' ? 'with' : 'without'} Expect (${out.stderr.trim()})`);
    const [body, status] = out.stdout.split('\n');
    t.equal(status, '413');
    t.equal((JSON.parse(body) as { code: string }).code, 'BODY_TOO_LARGE');
  }
});

t.test('a raw socket that keeps sending gets the 413 body; the server drains up to BODY_DRAIN_MAX_BYTES, then closes', async (t) => {
  const drainMax = 2 * 1024 * 1024;
  const { app, port } = await listening({ BODY_DRAIN_MAX_BYTES: String(drainMax), BODY_DRAIN_TIMEOUT_MS: '20000' });
  t.teardown(() => app.close());
  const announced = 256 * 1024 * 1024;
  const result = await rawPost(port, head(announced), announced);
  const res = parseResponse(result.received);
  t.equal(res.status, 413);
  t.equal(res.body?.code, 'BODY_TOO_LARGE');
  t.match(res.headers, /connection: close/i);
  t.ok(result.sent < announced, `the server cut the connection (client sent ${result.sent} bytes of ${announced})`);
  t.ok(result.ms < 15_000, `closed after ${result.ms} ms, by the byte bound, not the 20 s time bound`);
});

t.test('a client that sends the whole oversized body sees the 413 and a clean close', async (t) => {
  const { port } = await defaultServer();
  const size = 3 * 1024 * 1024;
  const result = await rawPost(port, head(size), size);
  t.equal(result.sent, size, 'the whole body went out');
  t.equal(result.ending, 'close', 'no EPIPE or reset on the client side');
  const res = parseResponse(result.received);
  t.equal(res.status, 413);
  t.equal(res.body?.code, 'BODY_TOO_LARGE');
});

/** One server for the two tests of short time bounds (a server start costs seconds of CPU). */
let shortBounds: ReturnType<typeof listening> | undefined;
function shortBoundsServer(): ReturnType<typeof listening> {
  shortBounds ??= listening({ BODY_DRAIN_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '400' });
  return shortBounds;
}
t.teardown(async () => {
  if (shortBounds !== undefined) await (await shortBounds).app.close();
});

t.test('a client trickling the rest of an oversized body is cut off after BODY_DRAIN_TIMEOUT_MS', async (t) => {
  const { port } = await shortBoundsServer();
  const announced = 8 * 1024 * 1024;
  // 1.1 MiB at once, then 1 KiB every 50 ms: it would take minutes to finish.
  const result = await rawPost(port, head(announced) + ' '.repeat(1_150_000), announced, { chunk: 1024, gapMs: 50 });
  const res = parseResponse(result.received);
  t.equal(res.status, 413);
  t.equal(res.body?.code, 'BODY_TOO_LARGE');
  t.ok(result.ms < 10_000, `closed after ${result.ms} ms (bound 300 ms plus slack)`);
});

t.test('a too-slow client gets 408 REQUEST_TIMEOUT after REQUEST_TIMEOUT_MS', async (t) => {
  const { port } = await shortBoundsServer();
  // The body arrives 10 bytes every 100 ms: 2,000 bytes would take 20 s.
  const slowBody = await rawPost(port, head(2000), 2000, { chunk: 10, gapMs: 100 });
  let res = parseResponse(slowBody.received);
  t.equal(res.status, 408, 'slow body');
  t.equal(res.body?.code, 'REQUEST_TIMEOUT');
  t.ok(slowBody.ms >= 300 && slowBody.ms < 10_000, `answered after ${slowBody.ms} ms`);
  // Headers that never finish.
  const slowHead = await new Promise<{ received: string; ms: number }>((resolve) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ received, ms: Date.now() - started }));
    socket.write(`POST ${PATH} HTTP/1.1\r\nHost: localhost\r\n`);
  });
  res = parseResponse(slowHead.received);
  t.equal(res.status, 408, 'slow headers');
  t.equal(res.body?.code, 'REQUEST_TIMEOUT');
  t.ok(slowHead.ms < 10_000, `answered after ${slowHead.ms} ms`);
  // A normal request on the same server is unaffected.
  const ok = await fetch(`http://127.0.0.1:${port}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: { m: 3, n: 3, k: 3, board: ['...', '...', '...'], turn: 'X' } }),
  });
  t.equal(ok.status, 200);
});

t.test('malformed HTTP and oversized headers get catalogue bodies', async (t) => {
  const { port } = await defaultServer();
  const send = (text: string): Promise<string> =>
    new Promise((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      socket.on('error', () => {});
      socket.on('close', () => resolve(received));
      socket.write(text);
    });
  const bad = parseResponse(await send('THIS IS NOT HTTP\r\n\r\n'));
  t.equal(bad.status, 400);
  t.equal(bad.body?.code, 'MALFORMED_REQUEST');
  const big = parseResponse(await send(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
  t.equal(big.status, 431);
  t.equal(big.body?.code, 'HEADERS_TOO_LARGE');
});
