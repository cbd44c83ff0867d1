// The page: draws what GET /api/state says and sends the player's clicks to the API.
// No rules live here; the server says which hexes are open, what was removed and who won.

const SVG = "http://www.w3.org/2000/svg";
const HEX = 26; // hex radius in SVG units: centre to corner
const SQRT3 = Math.sqrt(3);

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

function humanToMove() {
  return state && !state.result && !state.bot_to_move && !state.pending;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const extent = (state.size - 1) * 1.5 * HEX + HEX + 14;
  const width = (state.size - 1) * SQRT3 * HEX + HEX + 14;
  svg.setAttribute("viewBox", `${-width} ${-extent} ${2 * width} ${2 * extent}`);
  const heat = new Map((analysis?.hexes ?? []).map((h) => [h.name, h]));
  const maxPrior = Math.max(1e-9, ...[...heat.values()].map((h) => h.prior));
  const playable = humanToMove() && !busy;
  for (const cell of state.cells) {
    const [px, py] = centre(cell.x, cell.y);
    const classes = ["cell", cell.open ? "open" : "", cell.open && playable ? "playable" : ""];
    const g = el("g", {
      class: classes.join(" ").trim(),
      transform: `translate(${px.toFixed(2)} ${py.toFixed(2)})`,
      "data-hex": cell.name,
      "data-open": cell.open,
    }, svg);
    el("polygon", { class: "hex", points: hexPoints(HEX) }, g);
    if (cell.tile) {
      drawTile(g, cell.tile.colour, cell.tile.orientation, state.tile);
    } else {
      el("text", { class: "label", y: 3 }, g).textContent = cell.name;
    }
    const h = heat.get(cell.name);
    if (h && !cell.tile) {
      const alpha = 0.65 * Math.sqrt(h.prior / maxPrior);
      el("polygon", { class: "heat", points: hexPoints(HEX * 0.96), fill: `rgba(214, 40, 57, ${alpha.toFixed(3)})` }, g);
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
  markLastMove(svg);
}

function markLastMove(svg) {
  const last = state.last;
  if (!last) return;
  const at = (name) => state.cells.find((c) => c.name === name);
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
  drawTile(g, state.to_move, orientation, state.tile, "ghost");
}

function drawPreview() {
  const svg = $("preview");
  svg.replaceChildren();
  drawTile(svg, state.human, orientation, state.tile);
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
  if (state.pending) {
    const p = state.pending;
    return p.answerer === state.human ? `Accept or veto ${p.move}?` : `Bot answers ${p.move}…`;
  }
  return state.bot_to_move ? "Bot is thinking…" : `Your move (${cap(state.to_move)}), turn ${state.turn}`;
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);
const pct = (p) => `${(100 * p).toFixed(1)}%`;

function drawPanel() {
  $("status").textContent = statusText();
  $("score-orange").textContent = state.scores.orange;
  $("score-blue").textContent = state.scores.blue;
  const lead = state.tiles.orange - state.tiles.blue;
  const leader = lead > 0 ? "Orange" : "Blue";
  $("margin").textContent = lead === 0
    ? `Level on tiles; a lead of ${state.win_margin} wins.`
    : `${leader} leads by ${Math.abs(lead)} of the ${state.win_margin} that win.`;
  const answering = state.pending && state.pending.answerer === state.human && !state.result;
  $("answer").hidden = !answering;
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
  $("win-orange").style.width = pct(p.orange);
  $("win-blue").style.width = pct(p.blue);
  $("win-text").textContent = `Orange ${pct(p.orange)} · Blue ${pct(p.blue)} · ${analysis.visits} visits`;
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
  orientation = (orientation + step + 6) % 6;
  if (state) drawPreview();
}

const play = (move) => act(async () => update(await api("POST", "/api/play", { move })));

function wire() {
  $("rotate-right").addEventListener("click", () => rotate(1));
  $("rotate-left").addEventListener("click", () => rotate(-1));
  $("board").addEventListener("wheel", (event) => {
    event.preventDefault();
    rotate(event.deltaY > 0 ? 1 : -1);
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if (event.key.toLowerCase() === "r") rotate(event.shiftKey ? -1 : 1);
    else if (/^[0-5]$/.test(event.key)) rotate(Number(event.key) - orientation);
  });
  $("pass").addEventListener("click", () => play("pass"));
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

async function start() {
  wire();
  await act(async () => {
    state = await api("GET", "/api/state");
    $("human").value = state.human;
    $("visits").value = state.visits;
    $("size").value = String(state.size);
  });
}

start();
