// The page's drawing of Qast (see the serve crate's page.js for what a drawing module
// exports): the plank lying on its side (the rules' top end on the left, White's painted side
// at the bottom, Black's at the top), the ring of spaces with their paint, the discs with their
// direction, progress and sticks, the white, gold and black circles in the middle, the round's
// roll, and the choices of the decision at hand.

import { $, cap, el, heatFill, heatMap, html, humanToMove, pct, removedCross, view } from "/kit.js";

const CELL = 34; // a space's side in SVG units

export const sizes = [];

export function hint() {
  return "Click a ringed space to place a disc or give it your stick; at a move, click where the ringed disc goes. " +
    "Gold, kick and pass are buttons.";
}

/** A space's centre: the plank lies on its side, row 0 (the rules' bottom) on the right. */
function centre(side, col, row) {
  return [(side - 1 - row) * CELL, (2 - col) * CELL];
}

export function drawBoard(svg) {
  const state = view.state;
  const b = state.board;
  const width = b.side * CELL;
  svg.setAttribute("viewBox", `${-CELL} ${-1.2 * CELL} ${width + CELL} ${4.4 * CELL}`);
  el("rect", { class: "plank", x: -0.6 * CELL, y: -0.6 * CELL, width: width + 0.2 * CELL, height: 3.2 * CELL, rx: 8 }, svg);
  const at = new Map(b.spaces.map((s) => [s.name, centre(b.side, s.col, s.row)]));
  drawCircles(svg, b);
  const [heat, maxPrior] = heatMap();
  const playable = humanToMove() && !view.busy;
  const destinations = new Map(b.destinations.map((d) => [d.to, d.token]));
  for (const [index, space] of b.spaces.entries()) {
    const [x, y] = at.get(space.name);
    const token = destinations.get(space.name);
    const open = space.open || token !== undefined;
    const classes = ["space", space.painted ? `painted-${space.painted}` : "", open ? "open" : "", open && playable ? "playable" : ""];
    const g = el("g", {
      class: classes.join(" ").replace(/\s+/g, " ").trim(),
      transform: `translate(${x} ${y})`,
      "data-space": space.name,
      "data-open": open,
    }, svg);
    if (token) g.setAttribute("data-move", token);
    el("rect", { class: "cell", x: -CELL / 2, y: -CELL / 2, width: CELL, height: CELL }, g);
    el("text", { class: "space-name", x: -CELL / 2 + 2, y: -CELL / 2 + 8 }, g).textContent = space.name;
    const h = heat.get(space.name);
    if (h && open) {
      el("rect", { class: "heat", x: -CELL / 2 + 2, y: -CELL / 2 + 2, width: CELL - 4, height: CELL - 4, fill: heatFill(h.prior, maxPrior) }, g);
    }
    if (space.disc) drawDisc(g, space, b, at, index);
    if (open) el("rect", { class: `choice ${token ? "destination" : b.decision}`, x: -CELL / 2 + 1.5, y: -CELL / 2 + 1.5, width: CELL - 3, height: CELL - 3, rx: 4 }, g);
    if (token) el("text", { class: "move-token", y: CELL / 2 - 3 }, g).textContent = token;
    if (open && playable) g.addEventListener("click", () => view.play(token ?? space.name));
  }
  markLastMove(svg, at);
}

/** A disc: its colour, an arrow for its direction, its progress and the sticks it carries. */
function drawDisc(g, space, b, at, index) {
  const disc = space.disc;
  const classes = ["disc", disc.colour, space.name === b.moving ? "moving" : ""];
  const circle = el("circle", { class: classes.join(" ").trim(), r: CELL * 0.34, "data-disc": disc.colour }, g);
  const facts = [`${cap(disc.colour)} disc on ${space.name}`, disc.dir ? `moving ${disc.dir}, entered on ${disc.entry}` : "not moved yet",
    `progress ${disc.progress}`, disc.sticks.length ? `sticks ${disc.sticks.join(", ")}` : ""];
  el("title", {}, circle).textContent = facts.filter(Boolean).join(", ");
  if (disc.dir) {
    // Point at the next space in the disc's direction round the ring.
    const n = b.spaces.length;
    const next = b.spaces[(index + (disc.dir === "+" ? 1 : n - 1)) % n];
    const [x0, y0] = at.get(space.name);
    const [x1, y1] = at.get(next.name);
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
    const tip = [ux * CELL * 0.46, uy * CELL * 0.46];
    const base = [ux * CELL * 0.3, uy * CELL * 0.3];
    const side = [-uy * CELL * 0.1, ux * CELL * 0.1];
    el("polygon", {
      class: `direction ${disc.colour}`,
      points: [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]].map((p) => p.join(",")).join(" "),
    }, g);
  }
  el("text", { class: `progress on-${disc.colour}`, y: 4 }, g).textContent = String(disc.progress);
  disc.sticks.forEach((stick, i) => {
    const sx = -CELL * 0.3 + i * CELL * 0.3;
    el("rect", { class: "stick-mark", x: sx - 5, y: CELL * 0.18, width: 10, height: 11, rx: 2, "data-stick": stick }, g);
    el("text", { class: "stick-number", x: sx, y: CELL * 0.18 + 9 }, g).textContent = String(stick);
  });
}

/** The middle row: three white circles near the rules' bottom end, three gold in the middle,
 *  three black near the top, each filled with the discs it holds. */
function drawCircles(svg, b) {
  const m = (b.side - 1) / 2;
  const groups = [
    { kind: "white", rows: [4, 5, 6], discs: Array(b.circles[1]).fill("white") },
    { kind: "gold", rows: [m - 1, m, m + 1], discs: [...Array(b.gold[0]).fill("black"), ...Array(b.gold[1]).fill("white")] },
    { kind: "black", rows: [b.side - 7, b.side - 6, b.side - 5], discs: Array(b.circles[0]).fill("black") },
  ];
  for (const group of groups) {
    group.rows.forEach((row, i) => {
      const [x, y] = centre(b.side, 1, row);
      const g = el("g", { class: `circle-spot ${group.kind}`, transform: `translate(${x} ${y})`, "data-circle": group.kind }, svg);
      el("circle", { class: `circle ${group.kind}`, r: CELL * 0.4 }, g);
      const disc = group.discs[i];
      if (disc) el("circle", { class: `disc ${disc}`, r: CELL * 0.3, "data-held": disc }, g);
    });
  }
}

/** The last move: an arrow from where the disc stood to where it landed, a ring on a placed
 *  disc, a cross where a disc was taken (or left for gold). */
function markLastMove(svg, at) {
  const last = view.state.last;
  if (!last) return;
  const to = last.placed && at.get(last.placed);
  if (last.from && to) {
    const [x1, y1] = at.get(last.from);
    const [x2, y2] = to;
    el("line", { class: "last-move", x1, y1, x2, y2, "marker-end": "url(#move-head)", "data-last": `${last.from}-${last.placed}` }, svg);
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: "move-head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "move-head" }, marker);
  } else if (to) {
    el("circle", { class: "last-placed", cx: to[0], cy: to[1], r: CELL * 0.44, "data-last": last.placed }, svg);
  }
  for (const name of last.removed) {
    const [x, y] = at.get(name);
    removedCross(el("g", { transform: `translate(${x} ${y})`, "data-removed": name }, svg));
  }
}

/** The roll as stick faces: the holder's sticks 1 to 3 and the other player's 2 and 3. */
function rollView(roll) {
  const stick = (number, value) => html("span", { class: "stick", title: `stick ${number}: ${value}` },
    html("small", {}, String(number)), " ", "•".repeat(value));
  const worth = roll.three_threes ? " (three threes: each worth 4)" : "";
  return html("span", { class: "roll", "data-roll": roll.text },
    `${cap(roll.holder)} `, ...roll.holder_sticks.map((v, i) => stick(i + 1, v)), worth,
    ` · ${cap(roll.other)} `, ...roll.other_sticks.map((v, i) => stick(i + 2, v)));
}

/** The round, the coin, the roll with the bot's win chance after it, and the bonus buttons. */
export function setUp() {
  $("analysis-toggle").checked = true;
  const words = ["gold", "kick"].map((word) => {
    const button = html("button", { id: `word-${word}`, type: "button", hidden: true }, cap(word));
    button.addEventListener("click", () => view.play(word));
    return button;
  });
  $("game-controls").replaceChildren(html("div", { id: "qast-round" }), html("div", { id: "qast-roll" }), ...words);
}

export function drawControls() {
  const state = view.state;
  const b = state.board;
  $("qast-round").textContent = b.round === 0
    ? "Set-up: each side places three discs on its painted spaces"
    : `Round ${b.round} of ${b.max_rounds} · ${cap(b.coin)} holds the coin · ${b.decision_text}`;
  const roll = $("qast-roll");
  roll.replaceChildren();
  if (b.roll) {
    roll.append("Roll: ", rollView(b.roll));
    const p = view.analysis?.win_probability;
    if (p) roll.append(html("span", { class: "roll-win" }, ` · bot's estimate: ${cap(state.colours[0])} ${pct(p[0])}, ${cap(state.colours[1])} ${pct(p[1])}`));
  }
  for (const word of ["gold", "kick"]) {
    const button = $(`word-${word}`);
    button.hidden = !(b.words.includes(word) && humanToMove());
    button.disabled = view.busy;
  }
}

/** The value of the human's stick `stick` this round. */
function stickValue(b, stick) {
  const roll = b.roll;
  if (!roll) return null;
  if (view.state.human === roll.holder) return roll.three_threes ? 4 : roll.holder_sticks[stick - 1];
  return roll.other_sticks[stick - 2];
}

export function turnText() {
  const b = view.state.board;
  if (!humanToMove()) return null;
  const onlyPass = view.state.can_pass && !b.spaces.some((s) => s.open) && b.destinations.length === 0 && b.words.length === 0;
  switch (b.decision) {
    case "setup":
      return `Place a disc on a ringed painted space${b.words.includes("gold") ? ", or send it straight to gold" : ""}`;
    case "assign":
      return onlyPass ? `You have no disc on the track for stick ${b.stick}: pass`
        : `Give your stick ${b.stick} (worth ${stickValue(b, b.stick)}) to one of your ringed discs`;
    case "move":
      return onlyPass ? `Stick ${b.stick} has no move: pass`
        : `Move the disc on ${b.moving} with stick ${b.stick} (up to ${stickValue(b, b.stick)}): click where it goes`;
    case "lap":
      return "Your disc completed a lap: gold, kick, return a disc from your circles (click a ringed space) or pass";
    case "end":
      return onlyPass ? "No disc can come back to the track: pass" : "Bring a disc from your circles to a ringed space, or pass";
    default:
      return null;
  }
}

export function moveCount() {
  const b = view.state.board;
  return b.round === 0 ? "set-up" : `round ${b.round} of ${b.max_rounds}`;
}

/** The count of section 7: discs on gold first, then the progress of the discs racing. */
export function marginText() {
  const [black, white] = view.state.colours.map(cap);
  const b = view.state.board;
  return `On gold: ${black} ${b.gold[0]}, ${white} ${b.gold[1]}. Progress: ${black} ${b.progress[0]}, ${white} ${b.progress[1]}. ` +
    "Three discs on gold win; at the round limit gold counts first, then progress.";
}

export const css = `
.plank { fill: var(--wood); stroke: #b58e3c; stroke-width: 1.5; }
.space .cell { fill: rgba(255, 255, 255, 0.08); stroke: #6b5327; stroke-width: 1; }
.space.painted-white .cell { fill: #f6f1e4; }
.space.painted-black .cell { fill: #5a4a3a; }
.space-name { font-size: 6px; fill: #6b5327; pointer-events: none; }
.space.painted-black .space-name { fill: #e0d4bf; }
.space.playable { cursor: pointer; }
.space.playable:hover .cell { stroke: #1f6feb; stroke-width: 2; }
.choice { fill: none; stroke: #1f6feb; stroke-width: 2; pointer-events: none; }
.choice.destination { stroke: #d97706; stroke-dasharray: 4 2; }
.move-token { font-size: 8px; text-anchor: middle; fill: #d97706; font-weight: bold; pointer-events: none; }
.disc { stroke: rgba(0, 0, 0, 0.6); stroke-width: 1; }
.disc.black { fill: var(--black); }
.disc.white { fill: var(--white); }
.disc.moving { stroke: #d97706; stroke-width: 3; }
.direction { pointer-events: none; }
.direction.black { fill: #f2c14e; }
.direction.white { fill: #8a5a00; }
.progress { font-size: 9px; text-anchor: middle; pointer-events: none; }
.progress.on-black { fill: #fff; }
.progress.on-white { fill: #111; }
.stick-mark { fill: #c8a165; stroke: #6b5327; stroke-width: 0.8; pointer-events: none; }
.stick-number { font-size: 8px; text-anchor: middle; fill: #222; pointer-events: none; }
.circle { fill: none; stroke-width: 2; }
.circle.white { stroke: #f6f1e4; }
.circle.black { stroke: #222; }
.circle.gold { stroke: #d4a017; fill: rgba(212, 160, 23, 0.25); }
.last-move { stroke: #d97706; stroke-width: 2.5; pointer-events: none; opacity: 0.8; }
.move-head { fill: #d97706; }
.last-placed { fill: none; stroke: #d97706; stroke-width: 2; pointer-events: none; }
#qast-round, #qast-roll { margin: 0.2em 0; }
.roll .stick { display: inline-block; border: 1px solid #b58e3c; border-radius: 3px; padding: 0 4px; margin: 0 2px; background: #f3e3c3; }
.roll-win { color: #555; }
`;
