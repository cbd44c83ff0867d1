// The page's drawing of Ghodak (see the serve crate's page.js for what a drawing module
// exports): a Go board with its coordinates and star points, stones, the ko point and the
// last stone played.

import { cap, el, heatFill, heatMap, humanToMove, removedCross, view } from "/kit.js";

const GRID = 30; // distance between points in SVG units
const COLUMNS = "ABCDEFGHJKLMNOPQRST";

export const sizes = [5, 7, 9, 11, 13, 15, 17, 19];

export function hint() {
  return "Click a point to place a stone.";
}

/** The star points: 3-3 (4-4 from 13 up) corners, the centre of odd boards, and the side
 *  stars of odd boards from 15 up. */
function starPoints(n) {
  if (n < 7) return [];
  const near = n >= 13 ? 3 : 2;
  const far = n - 1 - near;
  const stars = [[near, near], [near, far], [far, near], [far, far]];
  if (n % 2 === 1) {
    const mid = (n - 1) / 2;
    stars.push([mid, mid]);
    if (n >= 15) stars.push([near, mid], [far, mid], [mid, near], [mid, far]);
  }
  return stars;
}

export function drawBoard(svg) {
  const state = view.state;
  const n = state.size;
  const far = (n - 1) * GRID;
  svg.setAttribute("viewBox", `${-1.3 * GRID} ${-1.3 * GRID} ${far + 2.6 * GRID} ${far + 2.6 * GRID}`);
  el("rect", { class: "goban", x: -0.8 * GRID, y: -0.8 * GRID, width: far + 1.6 * GRID, height: far + 1.6 * GRID, rx: 6 }, svg);
  for (let i = 0; i < n; i++) {
    el("line", { class: "grid", x1: 0, y1: i * GRID, x2: far, y2: i * GRID }, svg);
    el("line", { class: "grid", x1: i * GRID, y1: 0, x2: i * GRID, y2: far }, svg);
    for (const y of [-1.05 * GRID, far + 1.2 * GRID]) {
      el("text", { class: "coord", x: i * GRID, y }, svg).textContent = COLUMNS[i];
    }
    for (const x of [-1.05 * GRID, far + 1.05 * GRID]) {
      el("text", { class: "coord", x, y: i * GRID + 3 }, svg).textContent = String(n - i);
    }
  }
  for (const [x, y] of starPoints(n)) el("circle", { class: "star", cx: x * GRID, cy: y * GRID, r: 3 }, svg);
  const [heat, maxPrior] = heatMap();
  const playable = humanToMove() && !view.busy;
  for (const point of state.board.points) {
    const classes = ["point", point.open ? "open" : "", point.open && playable ? "playable" : ""];
    const g = el("g", {
      class: classes.join(" ").trim(),
      transform: `translate(${point.x * GRID} ${point.y * GRID})`,
      "data-point": point.name,
      "data-open": point.open,
    }, svg);
    el("circle", { class: "hit", r: GRID / 2 }, g);
    if (point.stone) {
      el("circle", { class: `stone ${point.stone}`, r: GRID * 0.47, "data-stone": point.stone }, g);
    }
    const h = heat.get(point.name);
    if (h && !point.stone) {
      el("circle", { class: "heat", r: GRID * 0.3, fill: heatFill(h.prior, maxPrior) }, g);
      if (h.prior >= 0.01) el("text", { class: "heat-label", y: 3 }, g).textContent = `${Math.round(100 * h.prior)}`;
    }
    if (point.name === state.board.ko) el("rect", { class: "ko", x: -5, y: -5, width: 10, height: 10 }, g);
    if (point.open && playable) {
      g.addEventListener("mouseenter", () => {
        g.querySelector(".ghost")?.remove();
        el("circle", { class: `stone ${state.to_move} ghost`, r: GRID * 0.47 }, g);
      });
      g.addEventListener("mouseleave", () => g.querySelector(".ghost")?.remove());
      g.addEventListener("click", () => view.play(point.name));
    }
  }
  markLastMove(svg);
}

function markLastMove(svg) {
  const state = view.state;
  const last = state.last;
  if (!last) return;
  const at = (name) => state.board.points.find((p) => p.name === name);
  for (const name of last.removed) {
    const p = at(name);
    removedCross(el("g", { transform: `translate(${p.x * GRID} ${p.y * GRID})`, "data-removed": name }, svg));
  }
  const placed = last.placed && at(last.placed);
  if (placed?.stone) {
    el("circle", { class: `last-stone on-${placed.stone}`, cx: placed.x * GRID, cy: placed.y * GRID, r: GRID * 0.22 }, svg);
  }
}

/** Go has no controls beyond the page's own (pass, undo). */
export function setUp() {}

export function drawControls() {}

export function turnText() {
  return null;
}

export function moveCount() {
  return `move ${view.state.board.moves_played + 1}`;
}

/** Komi, the move limit and the ko point. */
export function marginText() {
  const state = view.state;
  const b = state.board;
  const white = cap(state.colours[1]);
  const ko = b.ko ? ` Ko: ${b.ko} is closed.` : "";
  return `Area scores, komi ${b.komi} for ${white}; ${b.moves_played} of ${b.max_moves} moves played.${ko}`;
}

export const css = `
.goban { fill: var(--wood); stroke: #b58e3c; stroke-width: 1.5; }
.grid { stroke: #3b2f1a; stroke-width: 1; }
.star { fill: #3b2f1a; }
.point .hit { fill: transparent; }
.point.playable { cursor: pointer; }
.point.playable:hover .hit { fill: rgba(255, 255, 255, 0.25); }
.stone { stroke: rgba(0, 0, 0, 0.55); stroke-width: 1; }
.stone.black { fill: var(--black); }
.stone.white { fill: var(--white); }
.stone.ghost { opacity: 0.5; pointer-events: none; }
.point .heat-label { font-size: 9px; }
.last-stone { fill: none; stroke-width: 2; pointer-events: none; }
.last-stone.on-black { stroke: #fff; }
.last-stone.on-white { stroke: #111; }
.ko { fill: none; stroke: #b3261e; stroke-width: 2; pointer-events: none; }
`;
