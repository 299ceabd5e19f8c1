/**
 * Connection hygiene for hostile or slow clients.
 *
 * Lingering close. When the server answers before it has read the whole request body (413
 * BODY_TOO_LARGE, 415, any early error), Node closes the socket as soon as the answer is written.
 * The client is usually still sending: its next write hits a closed socket (EPIPE / ECONNRESET) and
 * many clients (Node's fetch among them) then report the broken pipe instead of the answer that is
 * already waiting in their receive buffer. Like nginx's lingering close, we half-close instead
 * (FIN after the answer), keep reading and discarding what the client still sends, and close once
 * the body has ended, or about BODY_DRAIN_MAX_BYTES more bytes were read (checked every 10 ms), or
 * BODY_DRAIN_TIMEOUT_MS passed.
 *
 * Slow clients. A request (headers and body) not received within REQUEST_TIMEOUT_MS is answered
 * with 408 REQUEST_TIMEOUT (catalogue body) and the connection closed; Node checks every
 * min(1 s, REQUEST_TIMEOUT_MS / 4), so the answer comes between the timeout and the timeout plus one check.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError, type ErrorCode } from './errors.js';

export interface DrainLimits {
  /** Most bytes read and discarded after an early answer before the connection is cut. */
  readonly maxBytes: number;
  /** Longest time spent draining after an early answer. */
  readonly timeoutMs: number;
}

/** How often Node looks for requests past their timeout (bounds the lateness of a 408). */
export function connectionsCheckMs(requestTimeoutMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4)));
}

const LINGERING = Symbol('kibitz.lingering');
/** How often a lingering socket's byte count and clock are checked. */
const DRAIN_CHECK_MS = 10;

type LingerSocket = Socket & { [LINGERING]?: boolean; destroySoon?: () => void };

/**
 * Arms a lingering close for a request whose body has not been read to its end: when Node would
 * close the connection after the answer, the write side is ended (the answer and a FIN go out) and
 * the rest of the body is read and thrown away within the limits, then the socket is destroyed.
 * Call it before the answer is sent (an onSend hook), with `connection: close` on the answer.
 */
export function armLingeringClose(request: IncomingMessage, limits: DrainLimits, onDrained?: (bytes: number, how: string) => void): void {
  const socket = request.socket as LingerSocket | null;
  if (socket === null || socket.destroyed || socket[LINGERING] === true) return;
  socket[LINGERING] = true;
  // Node's HTTP server closes a `connection: close` socket through destroySoon() once the answer is
  // written; for this one socket, destroySoon lingers instead.
  socket.destroySoon = function lingeringClose(this: LingerSocket): void {
    if (this.writable) this.end();
    // Node's parser reads a dumped body without emitting it: count the socket's bytes instead.
    const startBytes = this.bytesRead;
    const until = Date.now() + limits.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const finish = (how: string): void => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      request.removeListener('end', onEnd);
      onDrained?.(this.bytesRead - startBytes, how);
      this.destroy();
    };
    const onEnd = (): void => finish('end');
    if (request.complete || request.readableEnded) return finish('end');
    timer = setInterval(() => {
      if (this.bytesRead - startBytes > limits.maxBytes) finish('bytes');
      else if (Date.now() >= until) finish('time');
    }, DRAIN_CHECK_MS);
    timer.unref();
    request.once('end', onEnd);
    this.once('close', () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    });
    request.resume();
  };
}

/** Answers written straight to the socket for errors Node reports before there is a request object. */
const CLIENT_ERRORS: Record<string, ErrorCode> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
};

/**
 * fastify's clientErrorHandler: a slow client (408), oversized headers (431) and malformed HTTP
 * (400) get the catalogue body; then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const code: ErrorCode = CLIENT_ERRORS[error.code ?? ''] ?? 'MALFORMED_REQUEST';
  const messages: Record<string, string> = {
    REQUEST_TIMEOUT: 'the request was not received in time (REQUEST_TIMEOUT_MS)',
    HEADERS_TOO_LARGE: 'the request headers are too large',
    MALFORMED_REQUEST: 'the request is not well-formed HTTP/1.1',
  };
  const apiError = new ApiError(code, messages[code] ?? 'bad request');
  const body = JSON.stringify({
    statusCode: apiError.statusCode,
    code: apiError.code,
    error: STATUS_CODES[apiError.statusCode] ?? 'Error',
    message: apiError.message,
    requestId: 'none',
  });
  socket.write(
    `HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode] ?? 'Error'}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
  );
  // Half-close and give a client still sending a moment to read the answer before the socket goes.
  socket.end();
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Which connections have a response in flight, from the server's side. A shutting-down server
 * closes the others: Node's own idle sweep runs once, when the server closes, and a connection can
 * stay counted as busy after its last response (seen with an analysis stream that its client,
 * Node's fetch, aborted: the stream ended, the client kept the socket, and the close waited for it).
 */
export class ConnectionTracker {
  private readonly inFlight = new Map<Socket, number>();

  /** Follows every connection of `server`. */
  attach(server: { on(event: 'connection', listener: (socket: Socket) => void): unknown }): void {
    server.on('connection', (socket) => {
      this.inFlight.set(socket, 0);
      socket.once('close', () => this.inFlight.delete(socket));
    });
  }

  /** A response started on its connection; it counts until the response closes (sent or aborted). */
  responseStarted(response: { socket: Socket | null; once(event: 'close', listener: () => void): unknown }): void {
    const socket = response.socket;
    if (socket === null || !this.inFlight.has(socket)) return;
    this.inFlight.set(socket, this.inFlight.get(socket)! + 1);
    response.once('close', () => {
      const count = this.inFlight.get(socket);
      if (count !== undefined) this.inFlight.set(socket, count - 1);
    });
  }

  /** Connections open now, and how many of them have a response in flight. */
  counts(): { open: number; busy: number } {
    let busy = 0;
    for (const count of this.inFlight.values()) if (count > 0) busy++;
    return { open: this.inFlight.size, busy };
  }

  /** Destroys every connection with no response in flight; returns how many. */
  closeQuiet(): number {
    let closed = 0;
    for (const [socket, count] of this.inFlight) {
      if (count > 0) continue;
      socket.destroy();
      closed++;
    }
    return closed;
  }
}
