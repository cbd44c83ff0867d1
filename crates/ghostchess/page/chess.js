// The page's drawing of Ghost Chess (see the serve crate's page.js for what a drawing module
// exports): a chessboard with dark and light squares, White at the bottom, the pieces as
// chess glyphs, protected pieces with a shield ring, the frozen piece with a frost mark, the
// choices of the decision at hand ringed (a piece to move, where it goes, a rescue square, a
// respawn square...) and the globals (Hide, Assault, Exchange, Transcend, No) as buttons.

import { $, cap, el, heatFill, heatMap, html, humanToMove, removedCross, view } from "/kit.js";

const SQ = 48; // a square's side in SVG units
const MARGIN = 18; // room for the file letters and rank numbers

export const sizes = [];

export function hint() {
  return "Click a ringed piece, then a ringed square to move it. Follow-ups (a rescue square, a Respawn, " +
    "the extra move, a Search, the Knights' captures) are ringed squares too; Hide, Assault, Exchange, " +
    "Transcend and No are buttons.";
}

/** Every piece as the same filled glyph, coloured by its side. */
const GLYPHS = { P: "\u265F", N: "\u265E", B: "\u265D", R: "\u265C", q: "\u265B", n: "\u265E" };
const side = (letter) => (letter === letter.toUpperCase() ? "white" : "black");

/** A square's top-left corner: rank 8 on top, file a on the left. */
const corner = (s) => [MARGIN + SQ * s.file, SQ * (8 - s.rank)];

export function drawBoard(svg) {
  const state = view.state;
  const b = state.board;
  svg.setAttribute("viewBox", `0 0 ${MARGIN + 8 * SQ + 4} ${8 * SQ + MARGIN}`);
  const [heat, maxPrior] = heatMap();
  const playable = humanToMove() && !view.busy;
  const last = state.last;
  for (const s of b.squares) {
    const [x, y] = corner(s);
    const open = s.open;
    const g = el("g", {
      class: ["square", s.dark ? "dark" : "light", open ? "open" : "", open && playable ? "playable" : "",
        s.name === b.selected ? "selected" : ""].join(" ").replace(/\s+/g, " ").trim(),
      transform: `translate(${x} ${y})`,
      "data-square": s.name,
      "data-open": open,
    }, svg);
    el("rect", { class: "cell", width: SQ, height: SQ }, g);
    if (last && (last.from === s.name || last.placed === s.name)) el("rect", { class: "last", width: SQ, height: SQ }, g);
    if (s.piece) {
      const colour = side(s.piece);
      el("text", {
        class: `piece ${colour}${s.piece === "q" ? " ghost" : ""}`, x: SQ / 2, y: SQ * 0.78,
        "data-piece": s.piece,
      }, g).textContent = GLYPHS[s.piece];
    }
    if (s.protected) el("circle", { class: "shield", cx: SQ / 2, cy: SQ / 2, r: SQ * 0.44, "data-protected": s.name }, g);
    if (s.frozen) el("text", { class: "frost", x: SQ - 9, y: 13, "data-frozen": s.name }, g).textContent = "\u2744";
    if (open) el("circle", { class: `choice ${s.piece ? "on-piece" : "empty"}`, cx: SQ / 2, cy: SQ / 2, r: s.piece ? SQ * 0.46 : SQ * 0.16 }, g);
    const h = heat.get(s.name);
    if (h && open && h.prior >= 0.01) {
      el("rect", { class: "heat", x: 2, y: SQ - 14, width: 22, height: 12, fill: heatFill(h.prior, maxPrior) }, g);
      el("text", { class: "heat-label", x: 13, y: SQ - 5 }, g).textContent = `${Math.round(100 * h.prior)}`;
    }
    if (open && playable) g.addEventListener("click", () => view.play(s.name));
  }
  for (const name of last?.removed ?? []) {
    const s = b.squares.find((q) => q.name === name);
    if (!s || s.piece) continue;
    const [x, y] = corner(s);
    removedCross(el("g", { transform: `translate(${x + SQ / 2} ${y + SQ / 2})`, "data-removed": name }, svg));
  }
  for (let i = 0; i < 8; i++) {
    el("text", { class: "coord", x: MARGIN + SQ * i + SQ / 2, y: 8 * SQ + 13 }, svg).textContent = "abcdefgh"[i];
    el("text", { class: "coord", x: MARGIN / 2, y: SQ * i + SQ / 2 + 4 }, svg).textContent = String(8 - i);
  }
}

/** The globals of the decision at hand, as buttons the server lists. */
export function setUp() {
  $("game-controls").replaceChildren(
    html("p", { id: "chess-turn", class: "muted" }),
    html("div", { id: "chess-buttons", class: "row" }),
  );
}

export function drawControls() {
  const state = view.state;
  const b = state.board;
  const nexus = { full: "Full Nexus", half: "Half Nexus", shadow: "Shadow Nexus", none: "no Nexus" }[b.nexus];
  $("chess-turn").textContent = `Turn ${b.turn} of ${b.max_moves} · ${cap(b.mover)}'s turn · ${nexus}` +
    ` · black Knights lost: ${b.knights_lost}`;
  const mine = humanToMove();
  $("chess-buttons").replaceChildren(...(mine ? b.buttons : [])
    .filter((button) => button.play !== "pass")
    .map((button) => {
      const id = `word-${button.play === "#" ? "transcend" : button.play === "^" ? "assault" : button.play}`;
      const element = html("button", { id, type: "button", "data-play": button.play }, button.label);
      element.disabled = view.busy;
      element.addEventListener("click", () => view.play(button.play));
      return element;
    }));
}

export function turnText() {
  const b = view.state.board;
  if (!humanToMove() || b.decision === "over") return null;
  const follow = b.decider !== b.mover ? ` (in ${cap(b.mover)}'s turn)` : "";
  return `${cap(b.question)}${follow}`;
}

export function moveCount() {
  return `turn ${view.state.board.turn}`;
}

export function marginText() {
  return "Material: pawn 1, Knight and bishop 3, rook 5, the Ghost 30 (less 4 a black Knight lost). " +
    "White wins by capturing the Ghost or two black Knights, at the turn limit or on a threefold repetition; " +
    "Black by clearing the board.";
}

export const css = `
.square .cell { stroke: none; }
.square.light .cell { fill: #eed9b0; }
.square.dark .cell { fill: #a57548; }
.square.playable { cursor: pointer; }
.square.playable:hover .cell { filter: brightness(1.12); }
.square.selected .cell { fill: #7fb069; }
.square .last { fill: rgba(255, 214, 10, 0.35); pointer-events: none; }
.piece { font: 38px "DejaVu Sans", sans-serif; text-anchor: middle; pointer-events: none; }
.piece.white { fill: var(--white); stroke: #222; stroke-width: 1; }
.piece.black { fill: var(--black); stroke: #eee; stroke-width: 0.6; }
.piece.ghost { fill: #2d1b4e; stroke: #c9b6ff; stroke-width: 1; }
.shield { fill: none; stroke: #1f6feb; stroke-width: 2.5; stroke-dasharray: 5 3; pointer-events: none; }
.frost { font-size: 12px; fill: #1f6feb; pointer-events: none; }
.choice { fill: none; stroke: #0b7a3b; stroke-width: 3; pointer-events: none; }
.choice.empty { fill: rgba(11, 122, 59, 0.55); stroke: none; }
.coord { font: 11px sans-serif; fill: #555; text-anchor: middle; }
.heat-label { font-size: 9px; text-anchor: middle; pointer-events: none; }
`;
