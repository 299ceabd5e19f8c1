/**
 * The one catalogue of error codes. Every error body is
 * `{statusCode, code, error, message, field?, requestId}`; codes are stable API.
 */
import type { FieldError } from '../games/types.js';

export const ERROR_CATALOGUE = {
  VALIDATION_ERROR: { status: 400, description: 'The request does not match its schema; `field` names the offending part.' },
  INVALID_JSON: { status: 400, description: 'The body is not valid JSON.' },
  INVALID_MOVE_NOTATION: { status: 400, description: 'The move is not a well-formed move of this game.' },
  INVALID_PARAMETERS: { status: 400, description: 'Query parameters are individually valid but inconsistent (e.g. k > max(m, n)).' },
  MALFORMED_REQUEST: { status: 400, description: 'The request is not well-formed HTTP/1.1 (answered before routing; the connection is closed).' },
  NOT_FOUND: { status: 404, description: 'No such route.' },
  GAME_NOT_FOUND: { status: 404, description: 'No game with this id; see GET /v1/games.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The route exists but not for this method.' },
  REQUEST_TIMEOUT: { status: 408, description: 'The request (headers and body) was not received within REQUEST_TIMEOUT_MS; the connection is closed.' },
  BODY_TOO_LARGE: { status: 413, description: 'The body is larger than the configured limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'Send `Content-Type: application/json`.' },
  HEADERS_TOO_LARGE: { status: 431, description: 'The request headers are larger than Node allows (16 KiB); the connection is closed.' },
  INVALID_POSITION: { status: 422, description: 'The state is well-formed but impossible under the rules of the game.' },
  INVALID_HISTORY: { status: 422, description: 'The history does not lead to the state, or is itself illegal.' },
  ILLEGAL_MOVE: { status: 422, description: 'The move is well-formed but not legal in this position.' },
  GAME_OVER: { status: 422, description: 'The game is finished: there is no move to play or suggest.' },
  DUPLICATE_MOVE: { status: 422, description: 'A move is named twice in searchMoves or avoidMoves; `field` names the repeat.' },
  NO_MOVE_LEFT: { status: 422, description: 'searchMoves and avoidMoves leave no legal move to search.' },
  GAME_TOO_LONG: { status: 422, description: 'The game to review has more moves than the configured cap (REVIEW_MAX_PLIES).' },
  CANCELLED: { status: 499, description: 'The client closed the connection before the answer (seen only in logs and metrics).' },
  RATE_LIMITED: { status: 429, description: 'Too many requests from this client; retry after `Retry-After` seconds.' },
  QUEUE_FULL: { status: 503, description: 'Every worker is busy and the queue is full; retry after `Retry-After` seconds.' },
  TOO_MANY_STREAMS: {
    status: 503,
    description: 'MAX_STREAMS analysis streams are open; retry after `Retry-After` seconds, or ask for the plain JSON answer.',
  },
  STARTING: {
    status: 503,
    description: 'The replica is starting and its search threads did not warm up within the time budget; retry after `Retry-After` seconds.',
  },
  SHUTTING_DOWN: { status: 503, description: 'The replica is shutting down; retry on another one.' },
  SEARCH_FAILED: { status: 500, description: 'The search worker failed; the request may be retried.' },
  INTERNAL_ERROR: { status: 500, description: 'Unexpected server error.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly field: string | undefined;
  /** Seconds, for 429/503. */
  readonly retryAfter: number | undefined;

  /** `cause`: the server fault behind a 5xx, kept for the error log (never sent to the client). */
  constructor(code: ErrorCode, message: string, options: { field?: string; retryAfter?: number; cause?: unknown } = {}) {
    // A client's mistake or a refusal under load (503) needs no stack, and capturing one was a tenth
    // of the event loop's time when shedding load at 10x capacity; server faults keep theirs.
    const status = ERROR_CATALOGUE[code].status;
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500 || status === 503) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = ERROR_CATALOGUE[code].status;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
  }
}

const FIELD_ERROR_CODES: Record<FieldError['kind'], ErrorCode> = {
  position: 'INVALID_POSITION',
  move: 'ILLEGAL_MOVE',
  notation: 'INVALID_MOVE_NOTATION',
  params: 'INVALID_PARAMETERS',
  history: 'INVALID_HISTORY',
};

export function fromFieldError(error: FieldError): ApiError {
  return new ApiError(FIELD_ERROR_CODES[error.kind], `${error.field}: ${error.message}`, { field: error.field });
}

/** The one error body shape: `{statusCode, code, error, message, field?, requestId}`. */
export function errorBody(error: ApiError, requestId: string) {
  return {
    statusCode: error.statusCode,
    code: error.code,
    error: reasonPhrase(error.statusCode),
    message: error.message,
    ...(error.field === undefined ? {} : { field: error.field }),
    requestId,
  };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  499: 'Client Closed Request',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Error';
}
