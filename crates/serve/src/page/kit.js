// What the page shares with the game's drawing module (/game.js): the view's state, SVG and
// DOM helpers, and the heat map of the analysis. Modules load once per page, so the page and
// the drawing see the same `view`.

export const SVG = "http://www.w3.org/2000/svg";

/** The page's state: the server's view of the game, the analysis shown, whether an exchange
 *  with the server is under way, and how to play a move (set by the page). */
export const view = {
  state: null,
  analysis: null,
  busy: false,
  play: (move) => Promise.reject(new Error(`cannot play ${move} yet`)),
};

export const $ = (id) => document.getElementById(id);
export const cap = (s) => s[0].toUpperCase() + s.slice(1);
export const pct = (p) => `${(100 * p).toFixed(1)}%`;

export function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/** An HTML element with attributes, text and children. */
export function html(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "hidden") node.hidden = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/** Whether the human is to move and the game goes on. */
export function humanToMove() {
  const state = view.state;
  return state && !state.result && !state.bot_to_move;
}

/** The search's prior per place (hex, point, square), and its largest value. */
export function heatMap() {
  const heat = new Map((view.analysis?.targets ?? []).map((t) => [t.name, t]));
  const maxPrior = Math.max(1e-9, ...[...heat.values()].map((t) => t.prior));
  return [heat, maxPrior];
}

export const heatFill = (prior, maxPrior) =>
  `rgba(214, 40, 57, ${(0.65 * Math.sqrt(prior / maxPrior)).toFixed(3)})`;

/** A cross over a place whose piece the last move removed. */
export function removedCross(parent) {
  el("line", { class: "removed-x", x1: -6, y1: -6, x2: 6, y2: 6 }, parent);
  el("line", { class: "removed-x", x1: -6, y1: 6, x2: 6, y2: -6 }, parent);
}
