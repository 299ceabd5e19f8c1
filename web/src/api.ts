/**
 * The page's only way to the engine: the public HTTP API, exactly as a frontend would call it.
 * Errors keep the API's own body ({code, message, field}) so the page can show it verbatim.
 */

export interface MoveJson {
  notation: string;
  row?: number;
  col?: number;
  from?: string;
  to?: string;
  turn?: string;
}

export interface Status {
  status: 'ongoing' | 'win' | 'draw';
  winner?: string;
}

export interface Evaluation {
  score: number;
  outcome?: 'win' | 'loss' | 'draw';
  plies?: number;
  winProbability?: number;
}

export interface Line {
  move: MoveJson;
  evaluation: Evaluation;
  pv: MoveJson[];
}

export interface SearchAnswer {
  depth: number;
  nodes: number;
  elapsedMs?: number;
  stopReason?: string;
}

export interface BestMove extends SearchAnswer {
  move: MoveJson;
  evaluation: Evaluation;
  pv: MoveJson[];
}

export interface Analysis extends SearchAnswer {
  lines: Line[];
}

export interface SchemaProperty {
  type?: string;
  minimum?: number;
  maximum?: number;
  description?: string;
  examples?: unknown[];
}

export interface CatalogueEntry {
  id: string;
  name: string;
  rules: string;
  scoreScale: string;
  initialStateQuery?: { properties?: Record<string, SchemaProperty> };
  searchOptions: { properties?: Record<string, SchemaProperty> };
  levels?: { min: number; max: number; measured?: { elo: { level: number; elo: number; error: number }[] } };
}

export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  field?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

async function failure(response: Response): Promise<ApiError> {
  let body: ErrorBody;
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    body = { statusCode: response.status, code: 'HTTP_' + response.status, message: response.statusText || 'request failed' };
  }
  return new ApiError(response.status, body);
}

export async function get<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** POST a JSON body; a string is sent as it is (a pasted state reaches the API's own parser). */
export async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(path, { method: 'POST', headers: JSON_HEADERS, body: text, signal });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/**
 * POST with `Accept: text/event-stream`: each server-sent event goes to onEvent(type, data). A server
 * that answers plain JSON instead is reported as one `result` event.
 */
export async function postStream(
  path: string,
  body: unknown,
  onEvent: (type: string, data: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await failure(response);
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || response.body === null) {
    onEvent('result', await response.json());
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      dispatch(block, onEvent);
    }
  }
  if (buffer.trim() !== '') dispatch(buffer, onEvent);
}

function dispatch(block: string, onEvent: (type: string, data: unknown) => void): void {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return;
  onEvent(event, JSON.parse(data.join('\n')));
}
