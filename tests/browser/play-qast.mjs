// Plays a whole short game of Qast (the server's bot sets the round limit) in `ghast serve` in
// headless Chromium by clicking, as Black: the set-up placements (the third straight to gold
// with its button), every stick given to a disc, every move by clicking the landing space,
// the end placements and the forced passes. After each exchange it checks that the page draws
// the server's discs, sticks and choices, the round's roll and, after a roll, the bot's win
// probability. Writes the game's moves, final position and result beside the screenshot
// (game.json), for the test to replay through `ghast replay`.
// Usage: node play-qast.mjs <server url> <screenshot path>. Exits non-zero on the first mismatch.
import { openPage } from "./browser.mjs";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const { screenshot, page, problems, state, drawnAs, close } = await openPage("play-qast.mjs");
const humanTurn = (s) => !s.result && s.to_move === s.human;

/** What a space shows: its disc (colour, sticks) and whether it is a choice now. */
const served = (s) => s.board.spaces.map((space) => ({
  name: space.name,
  disc: space.disc?.colour ?? null,
  sticks: (space.disc?.sticks ?? []).join(""),
  open: space.open || s.board.destinations.some((d) => d.to === space.name),
}));

async function drawn() {
  return page.locator("#board .space").evaluateAll((gs) => gs.map((g) => ({
    name: g.dataset.space,
    disc: g.querySelector("[data-disc]")?.dataset.disc ?? null,
    sticks: [...g.querySelectorAll("[data-stick]")].map((m) => m.dataset.stick).join(""),
    open: g.dataset.open === "true",
  })));
}

/** The page shows every disc and stick of the server's board, rings exactly its choices,
 *  fills the circles and shows the roll. */
async function checkBoard(s) {
  const b = s.board;
  const circles = [...Array(b.circles[0] + b.gold[0]).fill("black"), ...Array(b.circles[1] + b.gold[1]).fill("white")];
  const expected = { board: served(s), held: circles.sort(), roll: b.roll ? [b.roll.text] : [] };
  const seen = await drawnAs(async () => ({
    board: await drawn(),
    held: await page.locator("#board [data-held]").evaluateAll((ds) => ds.map((d) => d.dataset.held).sort()),
    roll: await page.locator("#qast-roll [data-roll]").evaluateAll((r) => r.map((e) => e.dataset.roll)),
  }), expected);
  assert.deepEqual(seen.board, expected.board, `the page draws the board of ${s.position}`);
  assert.deepEqual(seen.held, expected.held, `the circles and gold of ${s.position}`);
  assert.deepEqual(seen.roll, expected.roll, `the roll of ${s.position}`);
}

/** The human's click: gold when the set-up offers it, else the longest move, else the
 *  first ringed space; null when only `pass` is left. */
function choose(s) {
  const b = s.board;
  if (b.words.includes("gold") && b.decision === "setup") return { word: "gold" };
  if (b.destinations.length) {
    const longest = [...b.destinations].sort((x, y) => Number(y.token.slice(1)) - Number(x.token.slice(1)))[0];
    return { space: longest.to, token: longest.token };
  }
  const open = b.spaces.find((space) => space.open);
  return open ? { space: open.name } : null;
}

try {
  await page.goto(process.argv[2]);
  await page.waitForSelector('#board .space[data-space="t24"]');
  let s = await state();
  assert.equal(s.game, "qast");
  assert.equal(await page.title(), "Qast");
  assert.equal(s.human, "black");
  assert.equal(await page.locator("#board .space").count(), 40, "a ring of 40 spaces");
  assert.equal(await page.locator("#board .space.painted-black").count(), 9);
  assert.equal(await page.locator("#board .space.painted-white").count(), 9);
  assert.equal(await page.locator("#board [data-circle]").count(), 9, "three white, three gold, three black circles");
  assert.equal(await page.locator("#board .space.open").count(), 9, "Black's painted spaces are open");
  assert.equal(await page.locator("#name-first").textContent(), "Black");

  const clicks = { space: 0, move: 0, word: 0, pass: 0 };
  let rolls = 0;
  let shot = false;
  while (!s.result) {
    assert.ok(humanTurn(s), "the page waits for the human");
    await checkBoard(s);
    if (s.board.roll && s.board.decision !== "setup") {
      // After each roll the analysis (on by default for Qast) gives the bot's win chance.
      await page.waitForSelector("#qast-roll .roll-win");
      rolls += 1;
    }
    if (!shot && s.board.decision === "move" && s.board.destinations.length > 1) {
      await page.screenshot({ path: screenshot, fullPage: true });
      shot = true;
    }
    const before = s.moves.length;
    const choice = choose(s);
    if (choice?.word) {
      await page.click(`#word-${choice.word}`);
      clicks.word += 1;
    } else if (choice) {
      const selector = `#board .space.playable[data-space="${choice.space}"]`;
      if (choice.token) {
        assert.equal(await page.locator(selector).getAttribute("data-move"), choice.token);
        clicks.move += 1;
      } else {
        clicks.space += 1;
      }
      await page.click(selector);
    } else {
      assert.ok(s.can_pass, `no choice but pass at ${s.position}`);
      await page.click("#pass");
      clicks.pass += 1;
    }
    for (;;) {
      s = await state();
      if (s.moves.length > before && (s.result || humanTurn(s))) break;
      await page.waitForTimeout(25);
    }
    await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, s.moves.length);
    if (!s.result) await page.waitForSelector("#board .space.playable, #pass:enabled, #word-gold:enabled");
  }
  assert.ok(clicks.move > 0 && clicks.space > 0 && clicks.word > 0, `moves, placements and gold clicked: ${JSON.stringify(clicks)}`);
  assert.ok(rolls > 0, "the win chance was shown after rolls");
  await page.waitForFunction(() => /wins|Draw/.test(document.querySelector("#status").textContent));
  await checkBoard(s);
  if (!shot) await page.screenshot({ path: screenshot, fullPage: true });
  assert.deepEqual(problems, [], "no script errors on the page");
  writeFileSync(join(dirname(screenshot), "game.json"), JSON.stringify({
    moves: s.moves, position: s.position, result: s.result.text,
  }));
  console.log(`played a whole Qast game in the page (${s.moves.length} tokens; clicks ${JSON.stringify(clicks)})`);
} finally {
  await close();
}
