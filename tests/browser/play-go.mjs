// Plays a few moves of Ghodak (Go) in `ghast serve` in headless Chromium by clicking, and
// checks that the page draws the Go board the server describes.
// Usage: node play-go.mjs <server url> <screenshot path>. Exits non-zero on the first mismatch.
import { openPage } from "./browser.mjs";
import assert from "node:assert/strict";

const { url, screenshot, page, problems, state, moveCount, close } = await openPage("play-go.mjs");
try {
  await page.goto(url);
  await page.waitForSelector('#board .point[data-point="E5"]');
  let s = await state();
  assert.equal(s.game, "ghodak");
  assert.equal(await page.title(), "Ghodak");
  assert.equal(await page.locator("#board .point").count(), 81, "a 9x9 board");
  assert.equal(await page.locator("#board .point.open").count(), 81, "every point is open");
  assert.equal(await page.locator("#board .star").count(), 5, "the 9x9 star points");
  assert.equal(await page.locator("#board .stone").count(), 0, "the board starts empty");
  assert.equal(await page.locator("#rotate-box").isVisible(), false, "no tiles to rotate");
  assert.equal(await page.locator("#name-first").textContent(), "Black");
  assert.equal(await page.locator("#points-second").textContent(), "7.5", "komi");
  assert.deepEqual(
    await page.locator("#human option").evaluateAll((options) => options.map((o) => o.value)),
    ["black", "white"],
  );

  // Black (the human) clicks E5; the bot answers with White.
  await page.click('#board .point[data-point="E5"]');
  await moveCount(2);
  s = await state();
  assert.equal(s.moves[0], "E5");
  assert.equal(s.last.by, "white", "the bot replied");
  assert.notEqual(s.last.move, "pass", "the seeded bot plays a stone");
  assert.equal(await page.locator('#board [data-point="E5"] [data-stone="black"]').count(), 1);
  assert.equal(await page.locator(`#board [data-point="${s.last.move}"] [data-stone="white"]`).count(), 1);
  assert.equal(await page.locator('#board .point[data-point="E5"]').getAttribute("data-open"), "false");
  assert.equal(await page.locator("#board .last-stone").count(), 1, "the bot's stone is marked");

  // The analysis paints the policy over the empty points and shows the win probability.
  await page.check("#analysis-toggle");
  await page.waitForSelector("#analysis:not([hidden])");
  assert.ok((await page.locator("#board .heat").count()) > 0, "a heat map");
  assert.match(await page.locator("#win-text").textContent(), /Black \d+\.\d% · White \d+\.\d%/);
  await page.uncheck("#analysis-toggle");

  // A click on an occupied point does nothing; passing is a move, and the bot answers it
  // (two passes in a row end the game, and the status says who won).
  await page.click('#board .point[data-point="E5"]');
  await page.click("#pass");
  await moveCount(4);
  s = await state();
  assert.equal(s.moves[2], "pass");
  if (s.result) {
    await page.waitForFunction(() => /wins|Draw/.test(document.querySelector("#status").textContent));
  }

  // Undo, then a new game as White on 7x7: the bot opens.
  await page.click("#undo");
  await moveCount(2);
  await page.selectOption("#human", "white");
  await page.selectOption("#size", "7");
  await page.click('#new-game button[type="submit"]');
  await moveCount(1);
  s = await state();
  assert.equal(s.size, 7);
  assert.equal(s.human, "white");
  assert.equal(await page.locator("#board .point").count(), 49);

  const open = s.board.points.find((p) => p.open);
  await page.hover(`#board .point[data-point="${open.name}"]`);
  await page.waitForSelector("#board .ghost");
  assert.deepEqual(problems, [], "no script errors on the page");
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`played a Go game in the page; screenshot ${screenshot}`);
} finally {
  await close();
}
