// The page's drawing of Vastuz (see the serve crate's page.js for what a drawing module
// exports): the hexagon of points with its lattice lines, stones, the choices of the decision
// at hand (a point to place on, a stone to take, where to put it), the cascade under way and
// the steals of the last turn.

import { $, cap, el, heatFill, heatMap, html, humanToMove, removedCross, view } from "/kit.js";

const GRID = 34; // distance between neighbouring points in SVG units
const ROW = GRID * Math.sqrt(3) / 2;

export const sizes = [3, 4, 5, 6, 7];

export function hint() {
  return "Click a point to place a stone; when your group steals, click the stone to take, then where to put it.";
}

const px = (p) => [GRID * (p.q + p.r / 2), ROW * p.r];

export function drawBoard(svg) {
  const state = view.state;
  const b = state.board;
  const span = GRID * (b.radius + 1.2);
  svg.setAttribute("viewBox", `${-span} ${-span} ${2 * span} ${2 * span}`);
  const corners = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]].map(([q, r]) =>
    px({ q: q * (b.radius + 0.7), r: r * (b.radius + 0.7) }).join(","));
  el("polygon", { class: "vastuz-board", points: corners.join(" ") }, svg);
  const byName = new Map(b.points.map((p) => [p.name, p]));
  const at = new Map(b.points.map((p) => [`${p.q},${p.r}`, p]));
  for (const p of b.points) {
    for (const [dq, dr] of [[1, 0], [0, 1], [-1, 1]]) {
      const n = at.get(`${p.q + dq},${p.r + dr}`);
      if (!n) continue;
      const [x1, y1] = px(p);
      const [x2, y2] = px(n);
      el("line", { class: "lattice", x1, y1, x2, y2 }, svg);
    }
  }
  const [heat, maxPrior] = heatMap();
  const playable = humanToMove() && !view.busy;
  const thief = new Set(b.thief);
  const targets = new Set(b.targets);
  const pending = new Set(b.pending);
  for (const p of b.points) {
    const [x, y] = px(p);
    const classes = ["point", p.open ? `open ${b.decision}` : "", p.open && playable ? "playable" : ""];
    const g = el("g", {
      class: classes.join(" ").replace(/\s+/g, " ").trim(),
      transform: `translate(${x} ${y})`,
      "data-point": p.name,
      "data-open": p.open,
    }, svg);
    el("circle", { class: "hit", r: GRID / 2 }, g);
    if (!p.stone) el("circle", { class: "dot", r: 2.5 }, g);
    if (p.stone) {
      const marks = [thief.has(p.name) ? "thief" : "", targets.has(p.name) ? "target" : "", pending.has(p.name) ? "pending" : ""];
      el("circle", { class: `stone ${p.stone} ${marks.join(" ")}`.trim(), r: GRID * 0.36, "data-stone": p.stone }, g);
    }
    if (p.name === b.taken) el("circle", { class: `taken ${state.colours.find((c) => c !== state.to_move)}`, r: GRID * 0.36, "data-taken": p.name }, g);
    if (p.open) el("circle", { class: `choice ${b.decision}`, r: GRID * 0.48 }, g);
    const h = heat.get(p.name);
    if (h && b.decision === "place" && !p.stone) {
      el("circle", { class: "heat", r: GRID * 0.3, fill: heatFill(h.prior, maxPrior) }, g);
      if (h.prior >= 0.01) el("text", { class: "heat-label", y: 3 }, g).textContent = `${Math.round(100 * h.prior)}`;
    }
    if (p.open && playable) {
      if (b.decision !== "take") {
        g.addEventListener("mouseenter", () => {
          g.querySelector(".ghost")?.remove();
          el("circle", { class: `stone ${state.to_move} ghost`, r: GRID * 0.36 }, g);
        });
        g.addEventListener("mouseleave", () => g.querySelector(".ghost")?.remove());
      }
      g.addEventListener("click", () => view.play(p.name));
    }
  }
  markLastTurn(svg, byName);
}

/** The last whole turn: its placement ringed, each steal an arrow from the stone taken to
 *  where it went (read from the move as written, `c4+e3-e3+a6-c5`). */
function markLastTurn(svg, byName) {
  const last = view.state.last;
  if (!last || !/^[a-z]/.test(last.move) || last.move === "pass" || last.move === "swap") return;
  const [placed, ...steals] = last.move.split("+");
  const p = byName.get(placed);
  if (p?.stone) {
    const [x, y] = px(p);
    el("circle", { class: `last-stone on-${p.stone}`, cx: x, cy: y, r: GRID * 0.2, "data-last": placed }, svg);
  }
  for (const steal of steals) {
    const [from, to] = steal.split("-").map((name) => byName.get(name));
    if (!from || !to) continue;
    const [x1, y1] = px(from);
    const [x2, y2] = px(to);
    if (from === to) {
      el("circle", { class: "steal-loop", cx: x1, cy: y1, r: GRID * 0.5, "data-steal": steal }, svg);
      continue;
    }
    const len = Math.hypot(x2 - x1, y2 - y1);
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    el("line", {
      class: "steal", "data-steal": steal, "marker-end": "url(#steal-head)",
      x1: x1 + ux * GRID * 0.3, y1: y1 + uy * GRID * 0.3, x2: x2 - ux * GRID * 0.45, y2: y2 - uy * GRID * 0.45,
    }, svg);
    if (!from.stone) {
      const g = el("g", { transform: `translate(${x1} ${y1})`, "data-removed": from.name }, svg);
      removedCross(g);
    }
  }
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "steal-head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", class: "steal-head" }, marker);
}

/** A `swap` button for White's second move under the pie rule. */
export function setUp() {
  const button = html("button", { id: "swap", type: "button", hidden: true }, "Swap (take Black's stone)");
  button.addEventListener("click", () => view.play("swap"));
  $("game-controls").replaceChildren(button);
}

export function drawControls() {
  const button = $("swap");
  if (!button) return;
  button.hidden = !(view.state.board.swap && humanToMove());
  button.disabled = view.busy;
}

export function turnText() {
  const b = view.state.board;
  if (!humanToMove()) return null;
  if (b.decision === "take") return `Your group must steal: click the enemy stone to take (ringed)`;
  if (b.decision === "put") return `Put the stone taken from ${b.taken} on a ringed point next to your stealing group`;
  return null;
}

export function moveCount() {
  return `move ${view.state.board.move_number}`;
}

/** Each side's group sizes, which the score counts. */
export function marginText() {
  const state = view.state;
  const [first, second] = state.board.sizes.map((list) => (list.length ? list.join("·") : "none"));
  return `Group sizes: ${cap(state.colours[0])} ${first}, ${cap(state.colours[1])} ${second}. ` +
    "A point per different size, half a point for the larger groups.";
}

export const css = `
.vastuz-board { fill: var(--wood); stroke: #b58e3c; stroke-width: 1.5; }
.lattice { stroke: #3b2f1a; stroke-width: 1; }
.point .dot { fill: #3b2f1a; }
.point .hit { fill: transparent; }
.point.playable { cursor: pointer; }
.point.playable:hover .hit { fill: rgba(255, 255, 255, 0.3); }
.stone { stroke: rgba(0, 0, 0, 0.55); stroke-width: 1; }
.stone.black { fill: var(--black); }
.stone.white { fill: var(--white); }
.stone.thief { stroke: #1f6feb; stroke-width: 3; }
.stone.target { stroke: #b3261e; stroke-width: 3; }
.stone.pending { stroke: #1f6feb; stroke-width: 2; stroke-dasharray: 3 2; }
.stone.ghost { opacity: 0.5; pointer-events: none; }
.taken { fill: none; stroke: #555; stroke-width: 1.5; stroke-dasharray: 4 3; pointer-events: none; }
.choice { fill: none; stroke-width: 2; pointer-events: none; }
.choice.place { stroke: transparent; }
.choice.take { stroke: #b3261e; }
.choice.put { stroke: #1f6feb; stroke-dasharray: 4 3; }
.point .heat-label { font-size: 9px; }
.last-stone { fill: none; stroke-width: 2; pointer-events: none; }
.last-stone.on-black { stroke: #fff; }
.last-stone.on-white { stroke: #111; }
.steal { stroke: #d97706; stroke-width: 3; pointer-events: none; }
.steal-loop { fill: none; stroke: #d97706; stroke-width: 2.5; pointer-events: none; }
.steal-head { fill: #d97706; }
`;
