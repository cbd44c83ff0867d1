// Plays Fakerghast in `ghast serve` in headless Chromium by clicking: the human places a real
// tile and then its fake, sees its own pairs face down with the real one marked and the bot's
// as backs only, and sees reveals as they happen. Checks that nothing the server sends tells
// which of the bot's tiles is real.
// Usage: node play-fakerghast.mjs <server url> <screenshot path>. Exits non-zero on the first
// mismatch.
import { openPage } from "./browser.mjs";
import assert from "node:assert/strict";

const { url, screenshot, page, problems, state, moveCount, drawnAs, close } = await openPage("play-fakerghast.mjs");

/** The face-down tiles the page draws, as `colour:orientation:real|fake|unknown` by hex. */
const drawnFaceDown = () =>
  page.locator("#board .cell").evaluateAll((cells) =>
    Object.fromEntries(cells.flatMap((cell) => {
      const down = cell.querySelector("[data-face-down]");
      return down ? [[cell.dataset.hex, down.dataset.faceDown]] : [];
    })));

/** The page draws exactly the face-down tiles of the state, and the state never says which
 *  tile of a bot pair is real (in the board, the position string or the move list). */
async function checkHidden(s) {
  const expected = Object.fromEntries(s.board.cells.filter((c) => c.face_down).map((c) => {
    const d = c.face_down;
    const real = d.real === true ? "real" : d.real === false ? "fake" : "unknown";
    return [c.name, `${d.colour}:${d.orientation}:${real}`];
  }));
  assert.deepEqual(await drawnAs(drawnFaceDown, expected), expected);
  for (const cell of s.board.cells.filter((c) => c.face_down)) {
    if (cell.face_down.colour === "blue") assert.equal(cell.face_down.real, null, `${cell.name}: the bot's secret`);
    else assert.notEqual(cell.face_down.real, null, `${cell.name}: the human's own pair`);
  }
  for (const token of s.position.split(" ").slice(3)) {
    if (token.startsWith("b")) assert.ok(token.includes(",") && !token.includes("+"), `bot pair in public form: ${token}`);
  }
  s.moves.forEach((move, i) => {
    if (i % 2 === 1) assert.ok(!move.includes("+"), `the bot's move ${move} in public form`);
  });
}

/** Places a pair by clicking: the real tile on the first open hex, the fake on the next. */
async function placePair() {
  let s = await state();
  const [real, fake] = s.board.cells.filter((c) => c.open).map((c) => c.name);
  await page.click(`#board .cell[data-hex="${real}"]`);
  await page.waitForFunction(() => /now place the fake/.test(document.querySelector("#status").textContent));
  s = await state();
  assert.equal(s.board.pending_real.hex, real);
  assert.equal(await page.locator(`#board .cell[data-hex="${real}"] .pending-real`).count(), 1);
  assert.equal(await page.locator(`#board .cell[data-hex="${real}"]`).getAttribute("data-open"), "false");
  await page.click(`#board .cell[data-hex="${fake}"]`);
  return [real, fake];
}

try {
  await page.goto(url);
  await page.waitForSelector("#board .cell");
  let s = await state();
  assert.equal(s.game, "fakerghast");
  assert.equal(await page.title(), "Fakerghast");
  assert.equal(s.human, "orange");

  // Turn 1: the human's pair, then the bot's.
  const [real, fake] = await placePair();
  await moveCount(2);
  s = await state();
  assert.equal(s.moves[0], `${real}:0+${fake}:0`, "the human's own move in full");
  assert.equal(await page.locator(`#board .cell[data-hex="${real}"] .face-down.orange.real`).count(), 1);
  assert.equal(await page.locator(`#board .cell[data-hex="${fake}"] .face-down.orange.fake`).count(), 1);
  await checkHidden(s);

  // Turn 2 (D = 1): each side's first pair turns over at the end of its next turn: the
  // human's real tile stands face up (unless starved at once), the bot's move names its real
  // hex after a `/`, and the page marks that reveal on the board.
  await placePair();
  await moveCount(4);
  s = await state();
  const shown = s.board.cells.find((c) => c.name === real);
  assert.equal(shown.face_down, null, "the human's pair is revealed");
  assert.ok(!shown.tile || shown.tile.colour === "orange", "the real tile turned face up");
  await checkHidden(s);
  if (s.moves[1] !== "pass") {
    assert.match(s.last.move, /\/[a-g]\d$/, "the bot's first pair revealed");
    const revealed = s.last.move.split("/")[1];
    if (s.board.cells.find((c) => c.name === revealed).tile) {
      assert.equal(await page.locator(`#board [data-revealed="${revealed}"]`).count(), 1);
    }
  }

  // The record would show the bot's real tiles: it waits for the end of the game.
  const record = await page.request.get(`${url}api/record`);
  assert.equal(record.status(), 409);
  assert.deepEqual(problems, [], "no script errors on the page");
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`played Fakerghast in the page; screenshot ${screenshot}`);
} finally {
  await close();
}
