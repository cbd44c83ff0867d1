// The page: draws what GET /api/state says and sends the player's clicks to the API. No rules
// live here; the server says which places are open, what was removed and who won. The board
// itself is drawn by the game's own module, /game.js, which the game's crate ships (a hex
// board for Ghast and Fakerghast, a Go board for Ghodak). It exports:
//   css            its styles
//   hint()         the help line under the board
//   sizes          the board sizes the new-game form offers
//   setUp()        once: puts its own controls (rotation, answers) in #game-controls
//   drawBoard(svg) the board, with the playable places wired to view.play
//   drawControls() its controls, after every change
//   turnText()     what the human is asked now when it is more than a move (else null)
//   moveCount()    how far the game is (`turn 3`, `move 12`)
//   marginText()   the line under the scores
// In a game with hidden information the server sends only what the human may see.

import { $, cap, html, humanToMove, pct, view } from "/kit.js";
import * as game from "/game.js";

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
  if (view.busy) return;
  view.busy = true;
  $("error").hidden = true;
  try {
    await work();
  } catch (error) {
    $("error").textContent = error.message;
    $("error").hidden = false;
  } finally {
    view.busy = false;
    render();
  }
}

/** Applies a new state, then lets the bot answer (every decision it has in a row: a Qast
 *  holder assigns three sticks) and refreshes the analysis. */
async function update(next) {
  view.state = next;
  view.analysis = null;
  render();
  while (view.state.bot_to_move) {
    $("status").textContent = "Bot is thinking…";
    view.state = await api("POST", "/api/bot");
    render();
  }
  await refreshAnalysis();
}

async function refreshAnalysis() {
  view.analysis =
    $("analysis-toggle").checked && !view.state.result ? await api("POST", "/api/analyse", {}) : null;
}

function statusText() {
  const state = view.state;
  if (state.result) {
    const w = state.result.winner;
    const who = w ? `${cap(w)} wins` : "Draw";
    const you = w === state.human ? " — you win!" : w ? " — the bot wins" : "";
    return `${who} (${state.result.reason})${you}`;
  }
  const asked = game.turnText();
  if (asked) return asked;
  return state.bot_to_move ? "Bot is thinking…" : `Your move (${cap(state.to_move)}), ${game.moveCount()}`;
}

function drawPanel() {
  const state = view.state;
  $("status").textContent = statusText();
  state.colours.forEach((colour, i) => {
    const which = ["first", "second"][i];
    $(`score-${which}`).className = `score ${colour}`;
    $(`name-${which}`).textContent = cap(colour);
    $(`points-${which}`).textContent = state.scores[i];
  });
  $("margin").textContent = game.marginText();
  $("pass").disabled = view.busy || !humanToMove() || !state.can_pass;
  $("undo").disabled = view.busy || state.moves.length === 0;
  $("bot").disabled = view.busy || !!state.result;
  const moves = $("moves");
  moves.replaceChildren(...state.moves.map((m) => html("li", {}, m)));
  moves.scrollTop = moves.scrollHeight;
  drawAnalysis();
}

function drawAnalysis() {
  const analysis = view.analysis;
  const shown = $("analysis-toggle").checked && analysis;
  $("analysis").hidden = !shown;
  if (!shown) return;
  const p = analysis.win_probability;
  const [first, second] = view.state.colours;
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
  if (!view.state) return;
  const svg = $("board");
  svg.replaceChildren();
  game.drawBoard(svg);
  game.drawControls();
  drawPanel();
}

view.play = (move) => act(async () => update(await api("POST", "/api/play", { move })));

function wire() {
  $("pass").addEventListener("click", () => view.play("pass"));
  $("undo").addEventListener("click", () => act(async () => {
    view.state = await api("POST", "/api/undo");
    await refreshAnalysis();
  }));
  $("bot").addEventListener("click", () => act(async () => update(await api("POST", "/api/bot"))));
  $("analysis-toggle").addEventListener("change", () => act(refreshAnalysis));
  $("level").addEventListener("change", showLevel);
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { human: $("human").value };
    if ($("level").value) body.level = Number($("level").value);
    else body.visits = Number($("visits").value);
    if ($("size").value) body.size = Number($("size").value);
    act(async () => update(await api("POST", "/api/new", body)));
  });
}

/** A level's Elo with its 95% interval, or that it was not measured. */
function eloText(level) {
  if (level.elo == null) return "not rated";
  const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(x))}`;
  return `Elo ${signed(level.elo)} [${signed(level.low)}, ${signed(level.high)}]`;
}

/** Fills the level menu from the bot's rated levels (weakest first); "Custom" keeps the
 *  visits box. A bot without levels shows only the visits. */
function setUpLevels() {
  const { levels, level } = view.state;
  const option = (value, text) => html("option", { value }, text);
  $("level").replaceChildren(
    ...levels.map((l, i) => option(String(i + 1), `${i + 1}${i === levels.length - 1 ? " (full strength)" : ""} · ${eloText(l)}`)),
    option("", "Custom visits"),
  );
  $("level-label").hidden = levels.length === 0;
  $("level").value = level == null ? "" : String(level);
  showLevel();
}

/** Shows the chosen level's search and anchors, or the visits box for custom visits. */
function showLevel() {
  const chosen = $("level").value;
  const level = chosen ? view.state.levels[Number(chosen) - 1] : null;
  $("visits-label").hidden = level != null;
  $("level-note").hidden = level == null;
  if (level) {
    const measured = level.elo == null ? "" : `; Elo with ${level.zero} at 0, measured against ${level.anchors.join(" and ")}`;
    $("level-note").textContent = `${level.visits} visit${level.visits === 1 ? "" : "s"} a move${measured}.`;
  }
}

/** Names the page after the game and fills the new-game choices with its colours and sizes. */
function setUpForGame() {
  const state = view.state;
  const title = cap(state.title);
  document.title = title;
  $("title").textContent = title;
  $("board").setAttribute("aria-label", `${title} board`);
  $("hint").textContent = game.hint();
  document.head.append(html("style", {}, game.css));
  const option = (value, text) => html("option", { value }, text);
  $("human").replaceChildren(...state.colours.map((c, i) => option(c, i === 0 ? `${cap(c)} (first)` : cap(c))));
  const sizes = state.size == null ? [] : game.sizes;
  $("size").replaceChildren(...sizes.map((n) => option(String(n), String(n))));
  $("size-label").hidden = sizes.length === 0;
  $("human").value = state.human;
  $("visits").value = state.visits;
  $("size").value = String(state.size);
  setUpLevels();
  game.setUp();
}

async function start() {
  wire();
  await act(async () => {
    view.state = await api("GET", "/api/state");
    setUpForGame();
  });
}

start();
