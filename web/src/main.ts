/**
 * The Kibitz playground: a reference integration of the public HTTP API. The page keeps the list of
 * positions of the game; every legal move, every next position and every result comes from the API.
 */
import { ApiError, get, post, postStream } from './api.js';
import type { Analysis, BestMove, CatalogueEntry, ErrorBody, Evaluation, Line, MoveJson, Status } from './api.js';
import { drawBoard, drawPreviewOnly, type Target } from './board.js';
import { VIEWS, type Cell, type State } from './games.js';

interface Ply {
  state: State;
  move: MoveJson | null;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const ui = {
  game: $<HTMLSelectElement>('game'),
  preset: $<HTMLSelectElement>('preset'),
  presetRow: $('preset-row'),
  exactK: $<HTMLInputElement>('exact-k'),
  exactKRow: $('exact-k-row'),
  options: $('options'),
  newGame: $<HTMLButtonElement>('new-game'),
  engineSide: $<HTMLSelectElement>('engine-side'),
  level: $<HTMLSelectElement>('level'),
  levelRow: $('level-row'),
  budget: $<HTMLInputElement>('budget'),
  analysis: $<HTMLInputElement>('analysis'),
  engineMove: $<HTMLButtonElement>('engine-move'),
  analysisPanel: $('analysis-panel'),
  multipv: $<HTMLSelectElement>('multipv'),
  analysisStatus: $('analysis-status'),
  lines: $('lines'),
  moves: $('moves'),
  first: $<HTMLButtonElement>('first'),
  undo: $<HTMLButtonElement>('undo'),
  redo: $<HTMLButtonElement>('redo'),
  stateJson: $<HTMLTextAreaElement>('state-json'),
  copyState: $<HTMLButtonElement>('copy-state'),
  loadState: $<HTMLButtonElement>('load-state'),
  copyCurl: $<HTMLButtonElement>('copy-curl'),
  curl: $('curl'),
  banner: $('banner'),
  board: document.getElementById('board') as unknown as SVGSVGElement,
  turn: $('turn'),
  score: $('score'),
  pass: $<HTMLButtonElement>('pass'),
  message: $('message'),
  engineInfo: $('engine-info'),
  evalbar: $('evalbar'),
};

const app = {
  catalogue: [] as CatalogueEntry[],
  gameId: 'mnk',
  view: VIEWS.mnk,
  plies: [] as Ply[],
  /** The game the plies belong to; null while a new game's first state loads (nothing is drawn or asked meanwhile). */
  pliesGame: null as string | null,
  cursor: 0,
  legal: [] as MoveJson[],
  /** The legal moves by notation, by cell ("row,col") and the squares pieces move from (built once per position). */
  byNotation: new Map<string, MoveJson>(),
  byCell: new Map<string, MoveJson>(),
  from: new Set<string>(),
  status: null as Status | null,
  selected: null as string | null,
  preview: null as MoveJson[] | null,
  /** The analysis line under the pointer (kept across progress updates, which rebuild the list). */
  previewLine: null as number | null,
  thinking: false,
  /** null until the first analysis request tells whether the server has the analyse route. */
  analysisAvailable: null as boolean | null,
  epoch: 0,
  controller: null as AbortController | null,
};

const MAX_HISTORY = 1000;
const base = (): string => `/v1/games/${app.gameId}`;
const current = (): State => app.plies[app.cursor].state;
const loaded = (): boolean => app.pliesGame === app.gameId;
const turnOf = (state: State): string => String(state.turn);
const history = (): State[] => app.plies.slice(Math.max(0, app.cursor - MAX_HISTORY), app.cursor).map((p) => p.state);
const engineSide = (): string => (ui.analysis.checked ? '' : ui.engineSide.value);
/** The chosen level when it is below full strength (the request then carries it); undefined at the top. */
const level = (): number | undefined => {
  const value = Number(ui.level.value);
  const top = app.catalogue.find((c) => c.id === app.gameId)?.levels?.max;
  return ui.level.value === '' || top === undefined || value >= top ? undefined : value;
};
/** A best-move body: the position, the time and the engine's level. */
const bestMoveBody = (): Record<string, unknown> => {
  const chosen = level();
  return { state: current(), history: history(), timeBudgetMs: budget(), ...(chosen === undefined ? {} : { level: chosen }) };
};
const budget = (): number => {
  const value = Math.round(Number(ui.budget.value));
  const max = Number(ui.budget.max) || 60_000;
  return Number.isFinite(value) ? Math.min(Math.max(value, 10), max) : 500;
};

function say(text: string, kind: 'info' | 'error' = 'info'): void {
  ui.message.textContent = text;
  ui.message.className = `message ${kind}`;
}

function apiMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const field = error.body.field === undefined ? '' : ` (field: ${error.body.field})`;
    return `${error.body.code}: ${error.body.message}${field}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function fail(error: unknown): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  say(apiMessage(error), 'error');
}

function formatEval(e: Evaluation): string {
  if (e.outcome === 'draw') return 'draw';
  if (e.outcome !== undefined) return `${e.outcome} in ${e.plies ?? '?'}`;
  return (e.score > 0 ? '+' : '') + String(Math.round(e.score * 100) / 100);
}

const percent = (p: number): string => `${Math.round(p * 100)}%`;

// ---- position changes ------------------------------------------------------------------------

function abortWork(): number {
  app.controller?.abort();
  app.controller = new AbortController();
  app.thinking = false;
  app.selected = null;
  app.preview = null;
  app.previewLine = null;
  return ++app.epoch;
}

/** Asks the API for the legal moves and status of the current position, then lets the engine move. */
async function refresh(autoEngine: boolean): Promise<void> {
  if (!loaded()) return;
  const epoch = abortWork();
  const signal = app.controller!.signal;
  setLegal([]);
  app.status = null;
  render();
  try {
    const reply = await post<{ moves: MoveJson[]; status: Status }>(`${base()}/legal-moves`, { state: current(), history: history() }, signal);
    if (epoch !== app.epoch) return;
    setLegal(reply.moves);
    app.status = reply.status;
    render();
    if (reply.status.status !== 'ongoing') return;
    if (ui.analysis.checked) await analyse(epoch);
    else if (autoEngine && engineSide() === turnOf(current())) await engineMove(epoch);
  } catch (error) {
    if (epoch === app.epoch) fail(error);
  }
}

function setLegal(moves: MoveJson[]): void {
  app.legal = moves;
  app.byNotation = new Map(moves.map((m) => [m.notation, m]));
  app.byCell = new Map(moves.filter((m) => m.row !== undefined).map((m) => [`${m.row},${m.col}`, m]));
  app.from = new Set(moves.map((m) => m.from ?? ''));
}

async function play(move: string, epoch: number): Promise<void> {
  const state = current();
  const status = app.status;
  app.status = null; // no second move while this one is on its way
  let reply: { state: State; status: Status };
  try {
    reply = await post<{ state: State; status: Status }>(`${base()}/play`, { state, move, history: history() }, app.controller!.signal);
  } catch (error) {
    if (epoch === app.epoch) app.status = status;
    throw error;
  }
  if (epoch !== app.epoch) return;
  const known = app.byNotation.get(move) ?? { notation: move };
  app.plies = app.plies.slice(0, app.cursor + 1);
  app.plies.push({ state: reply.state, move: known });
  app.cursor++;
  await refresh(true);
}

async function engineMove(epoch: number): Promise<void> {
  const side = turnOf(current());
  app.thinking = true;
  ui.engineInfo.textContent = `Engine (${app.view.sideName(side)}) is thinking…`;
  ui.board.classList.add('busy');
  ui.pass.hidden = true;
  try {
    const best = await post<BestMove>(`${base()}/best-move`, bestMoveBody(), app.controller!.signal);
    if (epoch !== app.epoch) return;
    app.thinking = false;
    ui.engineInfo.textContent =
      `Engine (${app.view.sideName(side)}) played ${best.move.notation}: ${formatEval(best.evaluation)}` +
      (best.evaluation.winProbability === undefined ? '' : `, win ${percent(best.evaluation.winProbability)}`) +
      `, depth ${best.depth}, ${best.nodes.toLocaleString('en')} nodes`;
    await play(best.move.notation, epoch);
  } finally {
    if (epoch === app.epoch) app.thinking = false;
  }
}

function jump(ply: number): void {
  if (!loaded() || ply < 0 || ply >= app.plies.length) return;
  app.cursor = ply;
  say('');
  void refresh(false);
}

function undo(): void {
  let target = app.cursor - 1;
  const engine = engineSide();
  // Against the engine, step back to the last position where the person was to move.
  while (engine !== '' && target > 0 && turnOf(app.plies[target].state) === engine) target--;
  jump(target);
}

// ---- clicks on the board ---------------------------------------------------------------------

function refuse(text: string, node: Element | null): void {
  say(text, 'error');
  if (node !== null) {
    node.classList.remove('refused');
    void (node as SVGElement).getBoundingClientRect();
    node.classList.add('refused');
  }
}

function onMove(move: string, node: Element | null): void {
  if (!loaded()) return refuse('One moment: the position is still loading.', node);
  const side = turnOf(current());
  const name = app.view.sideName(side);
  if (app.status === null) return refuse('One moment: the position is still loading.', node);
  if (app.status.status !== 'ongoing') return refuse('The game is over. Undo, jump to an earlier move, or start a new game.', node);
  if (app.thinking || engineSide() === side) return refuse(`It is the engine's turn (${name}); wait for its move.`, node);
  if (app.byNotation.has(move)) {
    say('');
    void play(move, app.epoch).catch(fail);
    return;
  }
  if (app.view.twoStep && !move.includes('-')) {
    if (app.from.has(move)) {
      app.selected = app.selected === move ? null : move;
      say(app.selected === null ? '' : `${move} selected: now click its destination.`);
      render();
      return;
    }
    if (app.selected !== null) return refuse(`${app.selected}-${move} is not a legal move. Pick a marked destination, or another piece.`, node);
    return refuse(`${name} has no legal move from ${move}. The pieces that can move are circled.`, node);
  }
  refuse(`${move} is not a legal move for ${name} here. Legal moves are marked.`, node);
}

function targets(cell: Cell): Target {
  const { view } = app;
  const state = current();
  const name = view.cellName(state, cell);
  const piece = view.piece(state, cell);
  const side = view.sideName(turnOf(state));
  const what = piece === null ? 'empty' : piece === 'king' ? 'the king' : `${piece === 'x' || piece === 'o' ? piece.toUpperCase() : piece}`;
  const ready = app.status?.status === 'ongoing' && !app.thinking && engineSide() !== turnOf(state);
  if (view.twoStep) {
    if (app.selected !== null) {
      if (name === app.selected) return { move: name, label: `${name}: selected ${what}; click again to deselect`, kind: 'selected' };
      const move = `${app.selected}-${name}`;
      if (app.byNotation.has(move)) return { move, label: `Move ${app.selected} to ${name}`, kind: 'dest' };
    }
    if (ready && app.from.has(name)) return { move: name, label: `${name}: ${what}, can move (${side})`, kind: 'legal' };
    return { move: name, label: `${name}: ${what}${view.squareKind(state, cell) === '' ? '' : ', ' + view.squareKind(state, cell)}`, kind: 'none' };
  }
  const legal = app.byCell.get(`${cell.row},${cell.col}`);
  if (legal !== undefined && ready) return { move: legal.notation, label: `${legal.notation}: legal move for ${side}`, kind: 'legal' };
  return { move: name, label: `${name}: ${what}, not a legal move`, kind: 'none' };
}

// ---- analysis --------------------------------------------------------------------------------

async function analyse(epoch: number): Promise<void> {
  const body = { state: current(), history: history(), multiPv: Number(ui.multipv.value), timeBudgetMs: budget() };
  const signal = app.controller!.signal;
  ui.lines.replaceChildren();
  if (app.analysisAvailable === false) return fallbackAnalysis(epoch);
  ui.analysisStatus.textContent = 'Analysing…';
  try {
    await postStream(`${base()}/analyse`, body, (type, data) => {
      if (epoch !== app.epoch) return;
      if (type === 'error') throw new ApiError((data as ErrorBody).statusCode, data as ErrorBody);
      const result = data as Partial<Analysis>;
      if ((type === 'progress' || type === 'result') && Array.isArray(result.lines)) {
        app.analysisAvailable = true;
        showLines(result as Analysis, type === 'result');
      }
    }, signal);
  } catch (error) {
    if (epoch !== app.epoch) return;
    if (error instanceof ApiError && error.status === 404 && error.body.code === 'NOT_FOUND') {
      app.analysisAvailable = false;
      return fallbackAnalysis(epoch);
    }
    throw error;
  }
}

async function fallbackAnalysis(epoch: number): Promise<void> {
  ui.analysisStatus.textContent = 'Analysis is not available on this server (no analyse route): showing the best move instead.';
  ui.analysisStatus.classList.add('unavailable');
  const best = await post<BestMove>(`${base()}/best-move`, { state: current(), history: history(), timeBudgetMs: budget() }, app.controller!.signal);
  if (epoch !== app.epoch) return;
  showLines({ lines: [{ move: best.move, evaluation: best.evaluation, pv: best.pv }], depth: best.depth, nodes: best.nodes }, true, true);
}

function showLines(result: Analysis, done: boolean, fallback = false): void {
  const side = turnOf(current());
  if (!fallback) {
    ui.analysisStatus.classList.remove('unavailable');
    ui.analysisStatus.textContent =
      `${done ? 'Done' : 'Searching'}: depth ${result.depth}, ${result.nodes.toLocaleString('en')} nodes` +
      (done && result.stopReason !== undefined ? ` (${result.stopReason})` : '');
  }
  ui.lines.replaceChildren(
    ...result.lines.map((line: Line, i) => {
      const li = document.createElement('li');
      li.className = 'line';
      li.tabIndex = 0;
      li.dataset.line = String(i);
      li.setAttribute('aria-label', `Line ${i + 1}: ${line.pv.map((m) => m.notation).join(' ')}; hover to preview, click to play ${line.move.notation}`);
      const parts: [string, string][] = [
        ['mv', line.move.notation],
        ['sc', formatEval(line.evaluation)],
        ['wp', line.evaluation.winProbability === undefined ? '' : percent(line.evaluation.winProbability)],
        ['pv', line.pv.map((m) => m.notation).join(' ')],
      ];
      for (const [cls, text] of parts) {
        const span = document.createElement('span');
        span.className = cls;
        span.textContent = text;
        li.append(span);
      }
      const show = (): void => {
        app.preview = line.pv;
        app.previewLine = i;
        drawPreviewOnly(ui.board, app.view, { moves: line.pv, side });
      };
      const hide = (): void => {
        app.preview = null;
        app.previewLine = null;
        drawPreviewOnly(ui.board, app.view, null);
      };
      li.addEventListener('mouseenter', show);
      li.addEventListener('focus', show);
      li.addEventListener('mouseleave', hide);
      li.addEventListener('blur', hide);
      li.addEventListener('click', () => onMove(line.move.notation, null));
      return li;
    }),
  );
  // A progress update under the pointer: preview the hovered line's new PV.
  const hovered = app.previewLine === null ? undefined : result.lines[app.previewLine];
  if (hovered !== undefined) {
    app.preview = hovered.pv;
    drawPreviewOnly(ui.board, app.view, { moves: hovered.pv, side });
  }
  const top = result.lines[0];
  if (top !== undefined) showEvalBar(top.evaluation, side);
}

function showEvalBar(e: Evaluation, side: string): void {
  const p = e.winProbability ?? (e.outcome === 'win' ? 1 : e.outcome === 'loss' ? 0 : e.outcome === 'draw' ? 0.5 : undefined);
  const first = app.view.sides[0];
  ui.evalbar.hidden = false;
  // The fill is the first side's share, in its colour (Black in Othello, White in Tablut and Hadron, X).
  ui.evalbar.className = `evalbar first-${app.view.sidePiece(first) ?? ''}`;
  ui.evalbar.title = `${app.view.sideName(first)}'s chance to win`;
  const fill = ui.evalbar.firstElementChild as HTMLElement;
  const text = ui.evalbar.lastElementChild as HTMLElement;
  const pFirst = p === undefined ? 0.5 : side === first ? p : 1 - p;
  fill.style.height = `${pFirst * 100}%`;
  text.textContent = p === undefined ? formatEval(e) : percent(pFirst);
  const chance = p === undefined ? '' : `, ${app.view.sideName(first)} wins ${percent(pFirst)}`;
  ui.evalbar.setAttribute('aria-label', `Evaluation: ${app.view.sideName(side)} to move, ${formatEval(e)}${chance}`);
}

// ---- drawing ---------------------------------------------------------------------------------

function render(): void {
  if (!loaded()) return;
  const state = current();
  const side = turnOf(state);
  const over = app.status !== null && app.status.status !== 'ongoing';
  drawBoard(ui.board, {
    gameId: app.gameId,
    view: app.view,
    state,
    targets,
    lastMove: app.plies[app.cursor].move,
    preview: app.preview === null ? null : { moves: app.preview, side },
  });
  ui.turn.textContent = over ? 'Game over' : `${app.view.sideName(side)} to move${engineSide() === side ? ' (engine)' : ''}`;
  ui.score.textContent = app.view.score?.(state) ?? '';
  const pass = app.legal.length === 1 && app.legal[0].notation === 'pass' && engineSide() !== side && !app.thinking;
  ui.pass.hidden = !pass;
  ui.banner.hidden = !over;
  ui.banner.className = `banner ${app.status?.status ?? ''}`;
  if (over && app.status !== null) {
    const why = app.view.overReason(state, app.status);
    ui.banner.textContent =
      app.status.status === 'draw' ? `Draw: ${why}.` : `${app.view.sideName(app.status.winner ?? '')} wins: ${why}.`;
  }
  if (!ui.analysis.checked) ui.evalbar.hidden = true;
  ui.levelRow.hidden = engineSide() === '';
  ui.board.classList.toggle('busy', app.thinking);
  ui.undo.disabled = app.cursor === 0;
  ui.first.disabled = app.cursor === 0;
  ui.redo.disabled = app.cursor >= app.plies.length - 1;
  renderMoves();
  if (document.activeElement !== ui.stateJson) ui.stateJson.value = JSON.stringify(state);
}

function renderMoves(): void {
  ui.moves.replaceChildren(
    ...app.plies.slice(1).map((ply, i) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = ply.move?.notation ?? '?';
      button.dataset.ply = String(i + 1);
      button.setAttribute('aria-label', `Go to ply ${i + 1}: ${ply.move?.notation ?? ''}`);
      if (i + 1 === app.cursor) button.setAttribute('aria-current', 'step');
      if (i + 1 > app.cursor) button.classList.add('future');
      button.addEventListener('click', () => jump(i + 1));
      li.append(button);
      return li;
    }),
  );
}

// ---- games and options -----------------------------------------------------------------------

function buildOptions(): void {
  const entry = app.catalogue.find((c) => c.id === app.gameId);
  const props = entry?.initialStateQuery?.properties ?? {};
  ui.presetRow.hidden = app.gameId !== 'mnk';
  ui.exactKRow.hidden = app.gameId !== 'mnk';
  ui.options.replaceChildren(
    ...Object.entries(props).map(([name, schema]) => {
      const row = document.createElement('div');
      row.className = 'row';
      const label = document.createElement('label');
      label.htmlFor = `opt-${name}`;
      label.textContent = name.toUpperCase().length === 1 ? name.toUpperCase() : name;
      label.title = schema.description ?? '';
      const input = document.createElement('input');
      input.type = 'number';
      input.id = `opt-${name}`;
      input.name = name;
      if (schema.minimum !== undefined) input.min = String(schema.minimum);
      if (schema.maximum !== undefined) input.max = String(schema.maximum);
      if (schema.examples !== undefined && schema.examples.length > 0) input.value = String(schema.examples[0]);
      input.title = schema.description ?? '';
      row.append(label, input);
      return row;
    }),
  );
  if (app.gameId === 'mnk') applyPreset();
  const sides = app.view.sides;
  ui.engineSide.replaceChildren(
    new Option('Nobody: both sides by hand', ''),
    new Option(app.view.sideName(sides[0]), sides[0]),
    new Option(app.view.sideName(sides[1]), sides[1], true, true),
  );
  const levels = entry?.levels;
  if (levels !== undefined) {
    const previous = ui.level.value;
    const measured = new Map((levels.measured?.elo ?? []).map((row) => [row.level, row]));
    const options: HTMLOptionElement[] = [];
    for (let l = levels.max; l >= levels.min; l--) {
      const row = measured.get(l);
      const elo = row === undefined ? '' : `, Elo ${row.elo >= 0 ? '+' : ''}${row.elo}`;
      options.push(new Option(`${l}${l === levels.max ? ' (full strength)' : l === levels.min ? ' (beginner)' : ''}${elo}`, String(l)));
    }
    ui.level.replaceChildren(...options);
    ui.level.value = options.some((o) => o.value === previous) ? previous : String(levels.max);
  }
  const max = entry?.searchOptions.properties?.timeBudgetMs?.maximum;
  if (max !== undefined) ui.budget.max = String(max);
}

function applyPreset(): void {
  const custom = ui.preset.value === 'custom';
  const values = custom ? null : ui.preset.value.split(',');
  ['m', 'n', 'k'].forEach((name, i) => {
    const input = document.getElementById(`opt-${name}`) as HTMLInputElement | null;
    if (input === null) return;
    if (values !== null) input.value = values[i];
    input.disabled = !custom;
  });
}

async function newGame(): Promise<void> {
  const params = new URLSearchParams();
  for (const input of ui.options.querySelectorAll('input')) if (input.value.trim() !== '') params.set(input.name, input.value.trim());
  const query = params.toString();
  const epoch = abortWork();
  // Until the first state arrives the old plies may be another game's: drawing them with this game's view
  // read fields that are not there (a TypeError in the page when a control changed during the load).
  app.pliesGame = null;
  setLegal([]);
  app.status = null;
  try {
    const state = await get<State>(`${base()}/initial-state${query === '' ? '' : '?' + query}`);
    if (epoch !== app.epoch) return;
    // The (M,N,K)-game's exactK rule is a field of the state: every later request carries it.
    if (app.gameId === 'mnk' && ui.exactK.checked) state.exactK = true;
    app.plies = [{ state, move: null }];
    app.pliesGame = app.gameId;
    app.cursor = 0;
    say('');
    ui.engineInfo.textContent = '';
    ui.lines.replaceChildren();
    await refresh(true);
  } catch (error) {
    fail(error);
  }
}

function selectGame(id: string): void {
  app.gameId = id;
  app.view = VIEWS[id];
  buildOptions();
  void newGame();
}

async function loadPasted(): Promise<void> {
  const text = ui.stateJson.value.trim();
  try {
    // The text goes to the API unparsed, so a bad paste is answered by the API's own message.
    await post(`${base()}/legal-moves`, `{"state":${text === '' ? '""' : text}}`);
    const state = JSON.parse(text) as State;
    app.plies = [{ state, move: null }];
    app.pliesGame = app.gameId;
    app.cursor = 0;
    say('State loaded.');
    await refresh(false);
  } catch (error) {
    fail(error);
  }
}

async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied to the clipboard.`);
  } catch {
    say(`${what} is shown below; copy it by hand (the clipboard is not available here).`);
  }
}

function curlCommand(): string {
  const analysis = ui.analysis.checked && app.analysisAvailable === true;
  const body = analysis
    ? { state: current(), multiPv: Number(ui.multipv.value), timeBudgetMs: budget() }
    : (({ history: _history, ...body }) => body)(bestMoveBody());
  const json = JSON.stringify(body).replace(/'/g, "'\\''");
  return `curl -s ${location.origin}${base()}/${analysis ? 'analyse' : 'best-move'} -H 'content-type: application/json' -d '${json}'`;
}

// ---- wiring ----------------------------------------------------------------------------------

function onBoardEvent(event: Event): void {
  const node = (event.target as Element).closest('[data-move]');
  if (node === null) return;
  if (event instanceof KeyboardEvent) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
  }
  onMove(node.getAttribute('data-move') ?? '', node);
}

async function main(): Promise<void> {
  ui.board.addEventListener('click', onBoardEvent);
  ui.board.addEventListener('keydown', onBoardEvent);
  ui.pass.addEventListener('click', () => onMove('pass', ui.pass));
  ui.game.addEventListener('change', () => selectGame(ui.game.value));
  ui.preset.addEventListener('change', () => {
    applyPreset();
    if (ui.preset.value !== 'custom') void newGame();
  });
  ui.exactK.addEventListener('change', () => void newGame());
  ui.newGame.addEventListener('click', () => void newGame());
  ui.engineSide.addEventListener('change', () => void refresh(true));
  ui.level.addEventListener('change', () => void refresh(false));
  ui.analysis.addEventListener('change', () => {
    ui.analysisPanel.hidden = !ui.analysis.checked;
    void refresh(false);
  });
  ui.multipv.addEventListener('change', () => void refresh(false));
  ui.engineMove.addEventListener('click', () => {
    if (app.status?.status !== 'ongoing' || app.thinking) return;
    const epoch = app.epoch;
    void engineMove(epoch).catch(fail);
  });
  ui.first.addEventListener('click', () => jump(0));
  ui.undo.addEventListener('click', undo);
  ui.redo.addEventListener('click', () => jump(app.cursor + 1));
  ui.copyState.addEventListener('click', () => {
    if (!loaded()) return;
    ui.stateJson.value = JSON.stringify(current());
    void copy(ui.stateJson.value, 'The state');
  });
  ui.loadState.addEventListener('click', () => void loadPasted());
  ui.copyCurl.addEventListener('click', () => {
    if (!loaded()) return;
    ui.curl.hidden = false;
    ui.curl.textContent = curlCommand();
    void copy(ui.curl.textContent, 'The curl command');
  });
  try {
    app.catalogue = await get<CatalogueEntry[]>('/v1/games');
  } catch (error) {
    fail(error);
    return;
  }
  ui.game.replaceChildren(...app.catalogue.filter((c) => VIEWS[c.id] !== undefined).map((c) => new Option(c.name, c.id)));
  const wanted = new URLSearchParams(location.search).get('game');
  const first = wanted !== null && VIEWS[wanted] !== undefined ? wanted : 'mnk';
  ui.game.value = first;
  selectGame(first);
}

void main();
