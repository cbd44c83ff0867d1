// Plays a few moves of Ghast in `ghast serve` in headless Chromium by clicking, as a person
// would, and checks that the page and the server agree on what happened.
// Usage: node play.mjs <server url> <screenshot path>. Exits non-zero on the first mismatch.
import { openPage } from "./browser.mjs";
import assert from "node:assert/strict";

const { url, screenshot, page, problems, state, moveCount, close } = await openPage("play.mjs");
try {
  await page.goto(url);
  await page.waitForSelector('#board .cell[data-hex="f1"]');
  let s = await state();
  assert.equal(s.board.cells.length, 91);
  assert.ok(s.board.cells.every((c) => c.tile === null), "the board starts empty");
  assert.equal(await page.locator("#board .cell.open").count(), 30, "turn 1 opens the 30 edge hexes");

  // Rotate twice with the keyboard, then place on f1 by clicking: the bot answers.
  await page.keyboard.press("r");
  await page.keyboard.press("r");
  await page.waitForFunction(() => document.querySelector("#orientation").textContent === "orientation 2");
  await page.click('#board .cell[data-hex="f1"]');
  await moveCount(2);
  s = await state();
  assert.equal(s.moves[0], "f1:2");
  assert.deepEqual(s.board.cells.find((c) => c.name === "f1").tile, { colour: "orange", orientation: 2 });
  assert.equal(s.last.by, "blue", "the bot replied");
  assert.equal(await page.locator('#board [data-hex="f1"] [data-tile="orange:2"]').count(), 1);
  const blue = s.board.cells.filter((c) => c.tile?.colour === "blue").length;
  assert.equal(await page.locator('#board .cell [data-tile^="blue:"]').count(), blue);
  assert.equal(await page.locator("#points-first").textContent(), String(s.scores[0]));
  assert.equal(await page.locator("#name-first").textContent(), "Orange");
  assert.equal(await page.title(), "Ghast");

  // Turn 3 opens depth 1: rotate with the wheel and place on the first open inner hex.
  await page.mouse.move(300, 300);
  await page.mouse.wheel(0, 120);
  await page.waitForFunction(() => document.querySelector("#orientation").textContent === "orientation 3");
  const inner = s.board.cells.find((c) => c.open && c.tile === null && c.name !== "f1" && ![0, 10].includes(c.y) && c.x !== 0);
  await page.click(`#board .cell[data-hex="${inner.name}"]`);
  await moveCount(4);
  s = await state();
  assert.equal(s.moves[2], `${inner.name}:3`);

  // Undo takes back the bot's reply and the move before it; the answer buttons stay hidden.
  await page.click("#undo");
  await moveCount(2);
  assert.equal((await state()).moves.length, 2);
  assert.equal(await page.locator("#accept").isVisible(), false, "no veto to answer");

  // The analysis paints the policy over the open hexes and shows the win probability.
  await page.check("#analysis-toggle");
  await page.waitForSelector("#analysis:not([hidden])");
  assert.ok((await page.locator("#board .heat").count()) > 0, "a heat map");
  assert.match(await page.locator("#win-text").textContent(), /Orange \d+\.\d% · Blue \d+\.\d%/);

  // The record lists the moves as `ghast replay` reads them.
  const record = await (await page.request.get(`${url}api/record`)).text();
  assert.deepEqual(record.trim().split("\n"), (await state()).moves);

  // The level menu lists the bundle's two rated levels and custom visits; a new game at
  // level 1 plays at its visits and says what its Elo was measured against.
  const levels = await page.locator("#level option").allTextContents();
  assert.deepEqual(levels, ["1 · Elo +120 [+60, +180]", "2 (full strength) · Elo +480 [+400, +560]", "Custom visits"]);
  assert.equal(await page.locator("#level").inputValue(), "", "the first game plays --visits");
  assert.equal(await page.locator("#visits-label").isVisible(), true);
  await page.selectOption("#level", "1");
  assert.equal(await page.locator("#visits-label").isVisible(), false, "a level has its own visits");
  assert.equal(await page.locator("#level-note").textContent(), "1 visit a move; Elo with random at 0, measured against random and greedy.");
  await page.click("#new-game button[type=submit]");
  await page.waitForFunction(() => document.querySelector("#moves").children.length === 0);
  s = await state();
  assert.equal(s.level, 1);
  assert.equal(s.visits, 1);
  await page.click('#board .cell[data-hex="f1"]');
  await moveCount(2);
  assert.equal((await state()).level, 1, "the level holds through the game");

  // Show a ghost tile under the pointer, then take the picture.
  const open = (await state()).board.cells.find((c) => c.open && c.y === 2);
  await page.hover(`#board .cell[data-hex="${open.name}"]`);
  await page.waitForSelector("#board .ghost");
  assert.deepEqual(problems, [], "no script errors on the page");
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`played ${record.trim().split("\n").length} moves; screenshot ${screenshot}`);
} finally {
  await close();
}
