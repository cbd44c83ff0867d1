// The page: draws what GET /api/state says and sends the player's clicks to the API.
// No rules live here; the server says which hexes or points are open, what was removed and
// who won. `state.game` picks the drawing: hexes and tiles for Ghast and Fakerghast (with its
// face-down tiles as backs), a Go board for Ghodak. In Fakerghast the server sends only what the
// human may see: which of the bot's face-down tiles is real is never in the state.

const SVG = "http://www.w3.org/2000/svg";
const HEX = 26; // hex radius in SVG units: centre to corner
const SQRT3 = Math.sqrt(3);
const GRID = 30; // distance between Go points in SVG units
const GO_COLUMNS = "ABCDEFGHJKLMNOPQRST";
const SIZES = { ghast: [3, 4, 5, 6, 7], fakerghast: [3, 4, 5, 6, 7], ghodak: [5, 7, 9, 11, 13, 15, 17, 19] };

const $ = (id) => document.getElementById(id);

let state = null;
let analysis = null;
let orientation = 0;
let busy = false;

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data;
}

/** Runs one exchange with the server, showing errors and keeping clicks out meanwhile. */
async function act(work) {
  if (busy) return;
  busy = true;
  $("error").hidden = true;
  try {
    await work();
  } catch (error) {
    $("error").textContent = error.message;
    $("error").hidden = false;
  } finally {
    busy = false;
    render();
  }
}

/** Applies a new state, then lets the bot answer and refreshes the analysis. */
async function update(next) {
  state = next;
  analysis = null;
  render();
  if (state.bot_to_move) {
    $("status").textContent = "Bot is thinking…";
    state = await api("POST", "/api/bot");
    render();
  }
  if ($("analysis-toggle").checked && !state.result) {
    analysis = await api("POST", "/api/analyse", {});
  }
}

// Geometry (RULES.md §1-2): axial q = x - R, r = y - R; pointy-top hexes, r grows downwards.
// Direction d points at angle 60°·d counter-clockwise from east.
function centre(x, y) {
  const radius = state.size - 1;
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

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
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

const isGo = () => state.game === "ghodak";

/** A face-down tile: a back in its owner's colour with its orientation's arrow, the turns
 *  left to its reveal, and, on the human's own pairs, which tile is the real one. */
function drawFaceDown(parent, down) {
  const real = down.real === true ? "real" : down.real === false ? "fake" : "unknown";
  const g = el("g", { class: `face-down ${down.colour} ${real}`, "data-face-down": `${down.colour}:${down.orientation}:${real}` }, parent);
  el("polygon", { class: "back", points: hexPoints(HEX * 0.86) }, g);
  const [tx, ty] = polar(60 * ((down.orientation + state.board.tile.ranged) % 6), HEX * 0.55);
  el("line", { class: "back-arrow", x1: 0, y1: 0, x2: tx, y2: ty }, g);
  el("text", { class: "countdown", y: 12 }, g).textContent = String(down.turns_left);
  if (down.real === true) el("text", { class: "real-mark", y: -4 }, g).textContent = "R";
  return g;
}

function humanToMove() {
  return state && !state.result && !state.bot_to_move && !state.board.pending;
}

/** The hexes whose real tile the last move revealed (`/hex` after a Fakerghast move). */
function revealedHexes() {
  return state.last ? state.last.move.split("/").slice(1) : [];
}

/** The search's prior per hex or point, and its largest value, for the heat map. */
function heatMap() {
  const heat = new Map((analysis?.targets ?? []).map((t) => [t.name, t]));
  const maxPrior = Math.max(1e-9, ...[...heat.values()].map((t) => t.prior));
  return [heat, maxPrior];
}

const heatFill = (prior, maxPrior) => `rgba(214, 40, 57, ${(0.65 * Math.sqrt(prior / maxPrior)).toFixed(3)})`;

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  if (isGo()) drawGoBoard(svg);
  else drawHexBoard(svg);
}

function drawHexBoard(svg) {
  const extent = (state.size - 1) * 1.5 * HEX + HEX + 14;
  const width = (state.size - 1) * SQRT3 * HEX + HEX + 14;
  svg.setAttribute("viewBox", `${-width} ${-extent} ${2 * width} ${2 * extent}`);
  const [heat, maxPrior] = heatMap();
  const playable = humanToMove() && !busy;
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
      g.addEventListener("click", () => play(`${cell.name}:${orientation}`));
    }
  }
  markLastHexMove(svg);
}

function markLastHexMove(svg) {
  const last = state.last;
  if (!last) return;
  const at = (name) => state.board.cells.find((c) => c.name === name);
  for (const name of last.removed) {
    const [px, py] = centre(at(name).x, at(name).y);
    const g = el("g", { transform: `translate(${px} ${py})`, "data-removed": name }, svg);
    el("polygon", { class: "removed", points: hexPoints(HEX * 0.8) }, g);
    el("line", { class: "removed-x", x1: -6, y1: -6, x2: 6, y2: 6 }, g);
    el("line", { class: "removed-x", x1: -6, y1: 6, x2: 6, y2: -6 }, g);
  }
  if (last.placed && !last.removed.includes(last.placed)) {
    const [px, py] = centre(at(last.placed).x, at(last.placed).y);
    el("polygon", { class: "last", points: hexPoints(HEX * 0.97), transform: `translate(${px} ${py})` }, svg);
  }
}

function showGhost(g) {
  g.querySelector(".ghost")?.remove();
  drawTile(g, state.to_move, orientation, state.board.tile, "ghost");
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

function drawGoBoard(svg) {
  const n = state.size;
  const far = (n - 1) * GRID;
  svg.setAttribute("viewBox", `${-1.3 * GRID} ${-1.3 * GRID} ${far + 2.6 * GRID} ${far + 2.6 * GRID}`);
  el("rect", { class: "goban", x: -0.8 * GRID, y: -0.8 * GRID, width: far + 1.6 * GRID, height: far + 1.6 * GRID, rx: 6 }, svg);
  for (let i = 0; i < n; i++) {
    el("line", { class: "grid", x1: 0, y1: i * GRID, x2: far, y2: i * GRID }, svg);
    el("line", { class: "grid", x1: i * GRID, y1: 0, x2: i * GRID, y2: far }, svg);
    for (const y of [-1.05 * GRID, far + 1.2 * GRID]) {
      el("text", { class: "coord", x: i * GRID, y }, svg).textContent = GO_COLUMNS[i];
    }
    for (const x of [-1.05 * GRID, far + 1.05 * GRID]) {
      el("text", { class: "coord", x, y: i * GRID + 3 }, svg).textContent = String(n - i);
    }
  }
  for (const [x, y] of starPoints(n)) el("circle", { class: "star", cx: x * GRID, cy: y * GRID, r: 3 }, svg);
  const [heat, maxPrior] = heatMap();
  const playable = humanToMove() && !busy;
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
      g.addEventListener("click", () => play(point.name));
    }
  }
  markLastGoMove(svg);
}

function markLastGoMove(svg) {
  const last = state.last;
  if (!last) return;
  const at = (name) => state.board.points.find((p) => p.name === name);
  for (const name of last.removed) {
    const p = at(name);
    const g = el("g", { transform: `translate(${p.x * GRID} ${p.y * GRID})`, "data-removed": name }, svg);
    el("line", { class: "removed-x", x1: -6, y1: -6, x2: 6, y2: 6 }, g);
    el("line", { class: "removed-x", x1: -6, y1: 6, x2: 6, y2: -6 }, g);
  }
  const placed = last.placed && at(last.placed);
  if (placed?.stone) {
    el("circle", { class: `last-stone on-${placed.stone}`, cx: placed.x * GRID, cy: placed.y * GRID, r: GRID * 0.22 }, svg);
  }
}

function drawPreview() {
  $("rotate-box").hidden = isGo();
  if (isGo()) return;
  const svg = $("preview");
  svg.replaceChildren();
  drawTile(svg, state.human, orientation, state.board.tile);
  $("orientation").textContent = `orientation ${orientation}`;
  const hovered = document.querySelector(".cell:hover");
  if (hovered && hovered.classList.contains("playable")) showGhost(hovered);
}

function statusText() {
  if (state.result) {
    const w = state.result.winner;
    const who = w ? `${cap(w)} wins` : "Draw";
    const you = w === state.human ? " — you win!" : w ? " — the bot wins" : "";
    return `${who} (${state.result.reason})${you}`;
  }
  const pending = state.board.pending;
  if (pending) {
    return pending.answerer === state.human ? `Accept or veto ${pending.move}?` : `Bot answers ${pending.move}…`;
  }
  const real = state.board.pending_real;
  if (real) {
    const single = state.board.can_single ? ", or keep it single" : "";
    return `Your real tile is on ${real.hex}: now place the fake${single}`;
  }
  const count = isGo() ? `move ${state.board.moves_played + 1}` : `turn ${state.board.turn}`;
  return state.bot_to_move ? "Bot is thinking…" : `Your move (${cap(state.to_move)}), ${count}`;
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);
const pct = (p) => `${(100 * p).toFixed(1)}%`;

/** The line under the scores: the tile lead in Ghast, komi, the move limit and ko in Go. */
function marginText() {
  const b = state.board;
  if (isGo()) {
    const ko = b.ko ? ` Ko: ${b.ko} is closed.` : "";
    return `Area scores, komi ${b.komi} for ${cap(state.colours[1])}; ${b.moves_played} of ${b.max_moves} moves played.${ko}`;
  }
  const lead = b.tiles[0] - b.tiles[1];
  const leader = cap(state.colours[lead > 0 ? 0 : 1]);
  return lead === 0
    ? `Level on tiles; a lead of ${b.win_margin} wins.`
    : `${leader} leads by ${Math.abs(lead)} of the ${b.win_margin} that win.`;
}

function drawPanel() {
  $("status").textContent = statusText();
  state.colours.forEach((colour, i) => {
    const which = ["first", "second"][i];
    $(`score-${which}`).className = `score ${colour}`;
    $(`name-${which}`).textContent = cap(colour);
    $(`points-${which}`).textContent = state.scores[i];
  });
  $("margin").textContent = marginText();
  const answering = state.board.pending && state.board.pending.answerer === state.human && !state.result;
  $("answer").hidden = !answering;
  $("single").hidden = !(state.board.can_single && humanToMove());
  $("pass").disabled = busy || !humanToMove() || !state.can_pass;
  $("undo").disabled = busy || state.moves.length === 0;
  $("bot").disabled = busy || !!state.result;
  for (const id of ["rotate-left", "rotate-right"]) $(id).disabled = busy;
  const moves = $("moves");
  moves.replaceChildren(...state.moves.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
  moves.scrollTop = moves.scrollHeight;
  drawAnalysis();
}

function drawAnalysis() {
  const shown = $("analysis-toggle").checked && analysis;
  $("analysis").hidden = !shown;
  if (!shown) return;
  const p = analysis.win_probability;
  const [first, second] = state.colours;
  $("win-first").className = `win ${first}`;
  $("win-second").className = `win ${second}`;
  $("win-first").style.width = pct(p[0]);
  $("win-second").style.width = pct(p[1]);
  $("win-text").textContent = `${cap(first)} ${pct(p[0])} · ${cap(second)} ${pct(p[1])} · ${analysis.visits} visits`;
  const rows = analysis.moves.map((m) =>
    `<tr><td>${m.move}</td><td>${pct(m.prior)}</td><td>${m.visits}</td><td>${m.win_probability == null ? "–" : pct(m.win_probability)}</td></tr>`);
  $("top-moves").innerHTML = `<tr><th>move</th><th>prior</th><th>visits</th><th>win</th></tr>${rows.join("")}`;
}

function render() {
  if (!state) return;
  drawBoard();
  drawPreview();
  drawPanel();
}

function rotate(step) {
  if (!state || isGo()) return;
  orientation = (orientation + step + 6) % 6;
  if (state) drawPreview();
}

const play = (move) => act(async () => update(await api("POST", "/api/play", { move })));

function wire() {
  $("rotate-right").addEventListener("click", () => rotate(1));
  $("rotate-left").addEventListener("click", () => rotate(-1));
  $("board").addEventListener("wheel", (event) => {
    if (!state || isGo()) return;
    event.preventDefault();
    rotate(event.deltaY > 0 ? 1 : -1);
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if (event.key.toLowerCase() === "r") rotate(event.shiftKey ? -1 : 1);
    else if (/^[0-5]$/.test(event.key)) rotate(Number(event.key) - orientation);
  });
  $("pass").addEventListener("click", () => play("pass"));
  $("single").addEventListener("click", () => play("single"));
  $("accept").addEventListener("click", () => play("accept"));
  $("veto").addEventListener("click", () => play("veto"));
  $("undo").addEventListener("click", () => act(async () => {
    state = await api("POST", "/api/undo");
    analysis = $("analysis-toggle").checked && !state.result ? await api("POST", "/api/analyse", {}) : null;
  }));
  $("bot").addEventListener("click", () => act(async () => update(await api("POST", "/api/bot"))));
  $("analysis-toggle").addEventListener("change", () => act(async () => {
    analysis = $("analysis-toggle").checked && !state.result ? await api("POST", "/api/analyse", {}) : null;
  }));
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { human: $("human").value, visits: Number($("visits").value), size: Number($("size").value) };
    act(async () => update(await api("POST", "/api/new", body)));
  });
}

/** Names the page after the game and fills the new-game choices with its colours and sizes. */
function setUpForGame() {
  const title = cap(state.game);
  document.title = title;
  $("title").textContent = title;
  $("board").setAttribute("aria-label", `${title} board`);
  $("hint").textContent = isGo()
    ? "Click a point to place a stone."
    : state.game === "fakerghast"
      ? "Place your real tile, then its fake: both go face down (R marks your real one) and turn over when the number on them runs out. Rotate with R / Shift+R, the mouse wheel or the buttons."
      : "Click a highlighted hex to place. Rotate with R / Shift+R, the mouse wheel or the buttons.";
  const option = (value, text) => Object.assign(document.createElement("option"), { value, textContent: text });
  $("human").replaceChildren(...state.colours.map((c, i) => option(c, i === 0 ? `${cap(c)} (first)` : cap(c))));
  $("size").replaceChildren(...(SIZES[state.game] ?? [state.size]).map((n) => option(String(n), String(n))));
  $("human").value = state.human;
  $("visits").value = state.visits;
  $("size").value = String(state.size);
}

async function start() {
  wire();
  await act(async () => {
    state = await api("GET", "/api/state");
    setUpForGame();
  });
}

start();
