// The page's drawing of Ghast and Fakerghast (see the serve crate's page.js for what a
// drawing module exports): a hexagon of hexes, tiles with their couplers, face-down tiles as
// backs in their owner's colour, a preview of the tile to place and its rotation, and the
// answer to a veto request. In Fakerghast the server sends only what the human may see:
// which of the bot's face-down tiles is real is never in the state.

import { $, SVG, cap, el, heatFill, heatMap, html, humanToMove, removedCross, view } from "/kit.js";

const HEX = 26; // hex radius in SVG units: centre to corner
const SQRT3 = Math.sqrt(3);

export const sizes = [3, 4, 5, 6, 7];

let orientation = 0;

export function hint() {
  return view.state.game === "fakerghast"
    ? "Place your real tile, then its fake: both go face down (R marks your real one) and turn over when the number on them runs out. Rotate with R / Shift+R, the mouse wheel or the buttons."
    : "Click a highlighted hex to place. Rotate with R / Shift+R, the mouse wheel or the buttons.";
}

// Geometry (RULES.md §1-2): axial q = x - R, r = y - R; pointy-top hexes, r grows downwards.
// Direction d points at angle 60°·d counter-clockwise from east.
function centre(x, y) {
  const radius = view.state.size - 1;
  const q = x - radius;
  const r = y - radius;
  return [SQRT3 * HEX * (q + r / 2), 1.5 * HEX * r];
}

function polar(angleDeg, distance) {
  const a = (angleDeg * Math.PI) / 180;
  return [distance * Math.cos(a), -distance * Math.sin(a)];
}

function hexPoints(radius) {
  return [0, 1, 2, 3, 4, 5].map((k) => polar(30 + 60 * k, radius).join(",")).join(" ");
}

/** A tile at the origin: its body, a bar on each regular-coupler edge, the ranged coupler's
 *  arrow and the receiver's dot, all turned by the orientation. */
function drawTile(parent, colour, o, tile, extraClass = "") {
  const g = el("g", { class: `tile ${colour} ${extraClass}`, "data-tile": `${colour}:${o}` }, parent);
  el("polygon", { class: "body", points: hexPoints(HEX * 0.9) }, g);
  for (const k of tile.couplers) {
    const d = (o + k) % 6;
    const [x1, y1] = polar(60 * d - 18, HEX * 0.72);
    const [x2, y2] = polar(60 * d + 18, HEX * 0.72);
    el("line", { class: "coupler", x1, y1, x2, y2 }, g);
  }
  const ranged = 60 * ((o + tile.ranged) % 6);
  const [tx, ty] = polar(ranged, HEX * 0.58);
  const [lx, ly] = polar(ranged + 150, HEX * 0.2);
  const [rx, ry] = polar(ranged - 150, HEX * 0.2);
  const [bx, by] = polar(ranged + 180, HEX * 0.25);
  el("line", { class: "ranged", x1: bx, y1: by, x2: tx, y2: ty }, g);
  el("polygon", { class: "ranged", points: `${tx},${ty} ${tx + lx},${ty + ly} ${tx + rx},${ty + ry}` }, g);
  const [cx, cy] = polar(60 * ((o + tile.receiver) % 6), HEX * 0.45);
  el("circle", { class: "receiver", cx, cy, r: HEX * 0.13 }, g);
  return g;
}

/** A face-down tile: a back in its owner's colour with its orientation's arrow, the turns
 *  left to its reveal, and, on the human's own pairs, which tile is the real one. */
function drawFaceDown(parent, down) {
  const real = down.real === true ? "real" : down.real === false ? "fake" : "unknown";
  const g = el("g", { class: `face-down ${down.colour} ${real}`, "data-face-down": `${down.colour}:${down.orientation}:${real}` }, parent);
  el("polygon", { class: "back", points: hexPoints(HEX * 0.86) }, g);
  const [tx, ty] = polar(60 * ((down.orientation + view.state.board.tile.ranged) % 6), HEX * 0.55);
  el("line", { class: "back-arrow", x1: 0, y1: 0, x2: tx, y2: ty }, g);
  el("text", { class: "countdown", y: 12 }, g).textContent = String(down.turns_left);
  if (down.real === true) el("text", { class: "real-mark", y: -4 }, g).textContent = "R";
  return g;
}

/** Whether the human may place now (not while a placement awaits its veto answer). */
function canPlace() {
  return humanToMove() && !view.state.board.pending && !view.busy;
}

/** The hexes whose real tile the last move revealed (`/hex` after a Fakerghast move). */
function revealedHexes() {
  const last = view.state.last;
  return last ? last.move.split("/").slice(1) : [];
}

export function drawBoard(svg) {
  const state = view.state;
  const extent = (state.size - 1) * 1.5 * HEX + HEX + 14;
  const width = (state.size - 1) * SQRT3 * HEX + HEX + 14;
  svg.setAttribute("viewBox", `${-width} ${-extent} ${2 * width} ${2 * extent}`);
  const [heat, maxPrior] = heatMap();
  const playable = canPlace();
  for (const cell of state.board.cells) {
    const [px, py] = centre(cell.x, cell.y);
    const classes = ["cell", cell.open ? "open" : "", cell.open && playable ? "playable" : ""];
    const g = el("g", {
      class: classes.join(" ").trim(),
      transform: `translate(${px.toFixed(2)} ${py.toFixed(2)})`,
      "data-hex": cell.name,
      "data-open": cell.open,
    }, svg);
    el("polygon", { class: "hex", points: hexPoints(HEX) }, g);
    const pendingReal = state.board.pending_real?.hex === cell.name ? state.board.pending_real : null;
    if (cell.tile) {
      drawTile(g, cell.tile.colour, cell.tile.orientation, state.board.tile);
      if (revealedHexes().includes(cell.name)) {
        el("polygon", { class: "revealed", points: hexPoints(HEX * 0.97), "data-revealed": cell.name }, g);
      }
    } else if (cell.face_down) {
      drawFaceDown(g, cell.face_down);
    } else if (pendingReal) {
      drawTile(g, state.to_move, pendingReal.orientation, state.board.tile, "pending-real");
      el("text", { class: "real-mark", y: -4 }, g).textContent = "R";
    } else {
      el("text", { class: "label", y: 3 }, g).textContent = cell.name;
    }
    const h = heat.get(cell.name);
    if (h && !cell.tile && !cell.face_down) {
      el("polygon", { class: "heat", points: hexPoints(HEX * 0.96), fill: heatFill(h.prior, maxPrior) }, g);
      if (h.prior >= 0.01) {
        el("text", { class: "heat-label", y: 12 }, g).textContent = `${Math.round(100 * h.prior)}%`;
      }
    }
    if (cell.open && playable) {
      g.addEventListener("mouseenter", () => showGhost(g));
      g.addEventListener("mouseleave", () => g.querySelector(".ghost")?.remove());
      g.addEventListener("click", () => view.play(`${cell.name}:${orientation}`));
    }
  }
  markLastMove(svg);
}

function markLastMove(svg) {
  const state = view.state;
  const last = state.last;
  if (!last) return;
  const at = (name) => state.board.cells.find((c) => c.name === name);
  for (const name of last.removed) {
    const [px, py] = centre(at(name).x, at(name).y);
    const g = el("g", { transform: `translate(${px} ${py})`, "data-removed": name }, svg);
    el("polygon", { class: "removed", points: hexPoints(HEX * 0.8) }, g);
    removedCross(g);
  }
  if (last.placed && !last.removed.includes(last.placed)) {
    const [px, py] = centre(at(last.placed).x, at(last.placed).y);
    el("polygon", { class: "last", points: hexPoints(HEX * 0.97), transform: `translate(${px} ${py})` }, svg);
  }
}

function showGhost(g) {
  g.querySelector(".ghost")?.remove();
  drawTile(g, view.state.to_move, orientation, view.state.board.tile, "ghost");
}

function rotate(step) {
  if (!view.state) return;
  orientation = (orientation + step + 6) % 6;
  drawPreview();
}

function drawPreview() {
  const svg = $("preview");
  svg.replaceChildren();
  drawTile(svg, view.state.human, orientation, view.state.board.tile);
  $("orientation").textContent = `orientation ${orientation}`;
  const hovered = document.querySelector(".cell:hover");
  if (hovered && hovered.classList.contains("playable")) showGhost(hovered);
}

/** The tile to place and its rotation, the fake-less single of the few-fakes variant, and
 *  the answer to a veto request. */
export function setUp() {
  const preview = document.createElementNS(SVG, "svg");
  preview.id = "preview";
  preview.setAttribute("viewBox", "-30 -30 60 60");
  preview.setAttribute("aria-label", "Tile to place");
  const button = (id, title, text) => html("button", { id, title }, text);
  $("game-controls").replaceChildren(
    html("div", { id: "rotate-box", class: "box rotate" },
      preview,
      html("div", {},
        html("div", { class: "row" },
          button("rotate-left", "Rotate clockwise (Shift+R)", "⟳"),
          button("rotate-right", "Rotate counter-clockwise (R)", "⟲")),
        html("span", { id: "orientation", class: "muted" }))),
    html("div", { class: "row" },
      html("button", { id: "single", hidden: true, title: "Fakerghast with fakes: the real tile stays a single tile, no fake" }, "Keep single")),
    html("div", { id: "answer", class: "row", hidden: true },
      button("accept", "Let the placement stand", "Accept"),
      button("veto", "Refuse the placement", "Veto")),
  );
  $("rotate-right").addEventListener("click", () => rotate(1));
  $("rotate-left").addEventListener("click", () => rotate(-1));
  $("single").addEventListener("click", () => view.play("single"));
  $("accept").addEventListener("click", () => view.play("accept"));
  $("veto").addEventListener("click", () => view.play("veto"));
  $("board").addEventListener("wheel", (event) => {
    event.preventDefault();
    rotate(event.deltaY > 0 ? 1 : -1);
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if (event.key.toLowerCase() === "r") rotate(event.shiftKey ? -1 : 1);
    else if (/^[0-5]$/.test(event.key)) rotate(Number(event.key) - orientation);
  });
  drawControls();
}

export function drawControls() {
  if (!$("preview")) return;
  const state = view.state;
  drawPreview();
  const answering = state.board.pending && state.board.pending.answerer === state.human && !state.result;
  $("answer").hidden = !answering;
  $("single").hidden = !(state.board.can_single && canPlace());
  for (const id of ["rotate-left", "rotate-right"]) $(id).disabled = view.busy;
}

export function turnText() {
  const state = view.state;
  const pending = state.board.pending;
  if (pending) {
    return pending.answerer === state.human ? `Accept or veto ${pending.move}?` : `Bot answers ${pending.move}…`;
  }
  const real = state.board.pending_real;
  if (real) {
    const single = state.board.can_single ? ", or keep it single" : "";
    return `Your real tile is on ${real.hex}: now place the fake${single}`;
  }
  return null;
}

export function moveCount() {
  return `turn ${view.state.board.turn}`;
}

/** The tile lead against the margin that wins. */
export function marginText() {
  const state = view.state;
  const b = state.board;
  const lead = b.tiles[0] - b.tiles[1];
  const name = cap(state.colours[lead > 0 ? 0 : 1]);
  return lead === 0
    ? `Level on tiles; a lead of ${b.win_margin} wins.`
    : `${name} leads by ${Math.abs(lead)} of the ${b.win_margin} that win.`;
}

export const css = `
.rotate { display: flex; gap: 12px; align-items: center; }
#preview { width: 64px; height: 64px; }
.hex { fill: #ece6da; stroke: var(--line); stroke-width: 1; }
.cell.open .hex { fill: #fff6cf; stroke: #d9b84a; }
.cell.open.playable { cursor: pointer; }
.cell.open.playable:hover .hex { fill: #ffe98a; }
.label { font-size: 8px; fill: #9a927f; text-anchor: middle; pointer-events: none; }
.tile .body { stroke: rgba(0, 0, 0, 0.35); stroke-width: 1; }
.tile.orange .body { fill: var(--orange); }
.tile.blue .body { fill: var(--blue); }
.coupler { stroke: #1d1f23; stroke-width: 3.5; stroke-linecap: round; }
.ranged { stroke: #fff; stroke-width: 2.4; fill: #fff; stroke-linecap: round; }
.receiver { fill: #fff; stroke: #1d1f23; stroke-width: 1.5; }
.ghost { opacity: 0.55; pointer-events: none; }
.last { fill: none; stroke: #111; stroke-width: 3; pointer-events: none; }
.removed { fill: none; stroke: #c0392b; stroke-width: 2; stroke-dasharray: 4 3; pointer-events: none; }
/* Fakerghast: face-down tiles are backs in their owner's colour; R marks the human's real one. */
.face-down .back { stroke-width: 2; stroke-dasharray: 4 3; fill: #2b2b33; }
.face-down.orange .back { stroke: var(--orange); }
.face-down.blue .back { stroke: var(--blue); }
.face-down .back-arrow { stroke: #ddd; stroke-width: 2; }
.face-down.orange .back-arrow { stroke: var(--orange); }
.face-down.blue .back-arrow { stroke: var(--blue); }
.countdown { fill: #ddd; font-size: 9px; text-anchor: middle; pointer-events: none; }
.real-mark { fill: #fff; font-size: 11px; font-weight: bold; text-anchor: middle; pointer-events: none; }
.pending-real { opacity: 0.8; }
.revealed { fill: none; stroke: #ffe066; stroke-width: 3; pointer-events: none; }
`;
