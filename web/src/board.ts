/** The board as SVG: squares, pieces, markers and one hit target per cell (carrying data-move). */
import type { MoveJson } from './api.js';
import type { Cell, GameView, Piece, State } from './games.js';

const NS = 'http://www.w3.org/2000/svg';
const C = 40;

export interface Target {
  move: string;
  label: string;
  /** legal: a move or a piece that can move; dest: a destination of the selected piece. */
  kind: 'legal' | 'dest' | 'selected' | 'none';
}

export interface BoardModel {
  gameId: string;
  view: GameView;
  state: State;
  targets: (cell: Cell) => Target;
  lastMove: MoveJson | null;
  /** Line previewed from the analysis: its moves, the first played by `side`. */
  preview: { moves: MoveJson[]; side: string } | null;
}

function el(name: string, attrs: Record<string, string | number>, parent?: Element): SVGElement {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent?.appendChild(node);
  return node;
}

function drawPiece(g: Element, piece: Piece, cx: number, cy: number, cls = ''): void {
  const r = C * 0.38;
  if (piece === 'white' || piece === 'black' || piece === 'king') {
    el('circle', { cx, cy, r, class: `piece ${piece} ${cls}` }, g);
    if (piece === 'king') {
      const s = C * 0.2;
      const pts = [
        [-s, s * 0.6], [-s, -s * 0.5], [-s * 0.5, 0], [0, -s * 0.8], [s * 0.5, 0], [s, -s * 0.5], [s, s * 0.6],
      ].map(([x, y]) => `${cx + x},${cy + y}`).join(' ');
      el('polygon', { points: pts, class: `crown ${cls}` }, g);
    }
  } else if (piece === 'x') {
    const d = C * 0.27;
    el('path', { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: `piece x ${cls}` }, g);
  } else if (piece === 'o') {
    el('circle', { cx, cy, r: C * 0.28, class: `piece o ${cls}` }, g);
  }
}

export function drawBoard(svg: SVGSVGElement, model: BoardModel): void {
  const { view, state } = model;
  const { rows, cols } = view.size(state);
  const labels = rows <= 26 && cols <= 26;
  const m = labels ? C * 0.6 : 4;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${cols * C + 2 * m} ${rows * C + 2 * m}`);
  svg.setAttribute('class', `board game-${model.gameId}`);
  // Small boards are not blown up to the whole column (CSSOM, allowed by the page's CSP).
  svg.style.maxWidth = `${Math.min(720, Math.max(360, Math.max(cols, rows * 0.9) * 64))}px`;
  const root = el('g', { transform: `translate(${m} ${m})` }, svg);
  el('rect', { x: 0, y: 0, width: cols * C, height: rows * C, fill: view.colours.light, class: 'frame' }, root);
  if (labels) {
    for (let c = 0; c < cols; c++) {
      el('text', { x: c * C + C / 2, y: -C * 0.18, class: 'coord' }, root).textContent = view.colLabel(state, c);
    }
    for (let r = 0; r < rows; r++) {
      el('text', { x: -m / 2, y: r * C + C / 2 + 4, class: 'coord' }, root).textContent = view.rowLabel(state, r);
    }
  }
  const last = model.lastMove === null ? null : view.cells(model.lastMove);
  const cells = el('g', { class: 'cells' }, root);
  const marks = el('g', { class: 'marks' }, root);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const cell = { row, col };
      const x = col * C;
      const y = row * C;
      const kind = view.squareKind(state, cell);
      const target = model.targets(cell);
      const dark = (row + col) % 2 === 1 ? view.colours.dark : view.colours.light;
      const hit = el('rect', { x, y, width: C, height: C, fill: dark, class: `sq ${kind} ${target.kind}` }, cells);
      hit.setAttribute('data-move', target.move);
      hit.setAttribute('aria-label', target.label);
      hit.setAttribute('role', 'button');
      hit.setAttribute('tabindex', target.kind === 'none' ? '-1' : '0');
      if (kind === 'throne') {
        const [a, b] = [8, C - 8];
        el('path', { d: `M${x + a} ${y + a}L${x + b} ${y + b}M${x + b} ${y + a}L${x + a} ${y + b}`, class: 'throne-mark' }, marks);
      }
      const isLast = last !== null && ((last.to.row === row && last.to.col === col) || (last.from?.row === row && last.from?.col === col));
      if (isLast) el('rect', { x: x + 2, y: y + 2, width: C - 4, height: C - 4, class: 'last' }, marks);
      const piece = view.piece(state, cell);
      if (piece !== null) drawPiece(marks, piece, x + C / 2, y + C / 2);
      // Past 26 x 26 (cells of a few pixels) the dots would be noise: every empty cell there is a hit target anyway.
      if (target.kind === 'legal' && piece === null && labels) el('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.12, class: 'dot' }, marks);
      if (target.kind === 'legal' && piece !== null) el('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.45, class: 'movable' }, marks);
      if (target.kind === 'dest') el('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.14, class: 'dot dest' }, marks);
      if (target.kind === 'selected') el('rect', { x: x + 1.5, y: y + 1.5, width: C - 3, height: C - 3, class: 'selected' }, marks);
    }
  }
  // Grid lines over the squares (thin, so placement boards read as a grid).
  const grid: string[] = [];
  for (let r = 0; r <= rows; r++) grid.push(`M0 ${r * C}H${cols * C}`);
  for (let c = 0; c <= cols; c++) grid.push(`M${c * C} 0V${rows * C}`);
  el('path', { d: grid.join(''), class: 'grid' }, marks);
  const layer = el('g', { class: 'preview' }, root);
  if (model.preview !== null) drawPreview(layer, view, model.preview);
}

/** Redraws only the previewed line (hovering the analysis lines must stay fast on 100x100 boards). */
export function drawPreviewOnly(svg: SVGSVGElement, view: GameView, preview: { moves: MoveJson[]; side: string } | null): void {
  const layer = svg.querySelector('g.preview');
  if (layer === null) return;
  layer.replaceChildren();
  if (preview !== null) drawPreview(layer, view, preview);
}

function drawPreview(g: Element, view: GameView, preview: { moves: MoveJson[]; side: string }): void {
  let side = preview.side;
  preview.moves.slice(0, 9).forEach((move, i) => {
    const at = view.cells(move);
    if (at !== null) {
      const cx = at.to.col * C + C / 2;
      const cy = at.to.row * C + C / 2;
      if (at.from !== undefined) {
        el('line', { x1: at.from.col * C + C / 2, y1: at.from.row * C + C / 2, x2: cx, y2: cy, class: `arrow ${i === 0 ? 'first' : ''}` }, g);
      }
      drawPiece(g, view.sidePiece(side), cx, cy, 'ghost');
      el('circle', { cx: cx + C * 0.3, cy: cy - C * 0.3, r: C * 0.17, class: 'badge' }, g);
      el('text', { x: cx + C * 0.3, y: cy - C * 0.3 + 4.5, class: 'badge-text' }, g).textContent = String(i + 1);
    }
    side = side === view.sides[0] ? view.sides[1] : view.sides[0];
  });
}
