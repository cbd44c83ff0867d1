// Plays Ghost Chess in `ghast serve` in headless Chromium by clicking, as either side (the
// server's bot sets a short turn limit). As White: the first turn is an Assault (its button,
// the bishop, its square), then ordinary turns to the end. Then a new game as Black from the
// new-game form: the bot opens, and every Black turn is a click on a piece and one on its
// square, with the follow-ups (a rescue square, Stay or Transcend) as clicks or buttons. After
// each exchange it checks that the page draws the server's pieces, protections, frozen piece
// and choices. Writes the Black game's moves, final position and result beside the
// screenshot (game.json), for the test to replay through `ghast replay`.
// Usage: node play-ghostchess.mjs <server url> <screenshot path>. Exits non-zero on the first mismatch.
import { openPage } from "./browser.mjs";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const { screenshot, page, problems, state, drawnAs, close } = await openPage("play-ghostchess.mjs");
const humanTurn = (s) => !s.result && s.to_move === s.human;

const served = (s) => s.board.squares.map((q) => ({
  name: q.name, piece: q.piece ?? null, open: q.open, protected: q.protected, frozen: q.frozen,
}));

async function drawn() {
  return page.locator("#board .square").evaluateAll((gs) => gs.map((g) => ({
    name: g.dataset.square,
    piece: g.querySelector("[data-piece]")?.dataset.piece ?? null,
    open: g.dataset.open === "true",
    protected: g.querySelector("[data-protected]") !== null,
    frozen: g.querySelector("[data-frozen]") !== null,
  })));
}

async function shown() {
  const buttons = await page.locator("#chess-buttons button").evaluateAll((bs) => bs.map((b) => b.dataset.play));
  return { board: await drawn(), buttons };
}

/** Checks that the page draws the server's state `s` (once it has drawn it). */
async function checkBoard(s) {
  const expected = {
    board: served(s),
    buttons: humanTurn(s) ? s.board.buttons.map((b) => b.play).filter((p) => p !== "pass") : [],
  };
  const seen = await drawnAs(shown, expected);
  assert.deepEqual(seen.board, expected.board, `the page draws the board of ${s.position}`);
  assert.deepEqual(seen.buttons, expected.buttons, `the buttons of ${s.position} (${s.board.decision})`);
}

/** What tells two states apart: a decision of a turn changes the board's choices, not always
 *  the moves or the position. */
const key = (s) => JSON.stringify([s.human, s.moves.length, s.position, s.board, s.result]);

/** Waits until the server has taken the click made in state `previous` (a click reaches it
 *  only after the page's request does), the bot has answered, and it is the human's turn
 *  again (or the game ended). */
async function settle(previous) {
  const asked = Date.now();
  let s;
  for (;;) {
    s = await state();
    if (key(s) !== key(previous) && (s.result || humanTurn(s))) break;
    assert.ok(Date.now() - asked < 30_000, `no answer to the click at ${previous.position}`);
    await page.waitForTimeout(25);
  }
  await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, s.moves.length);
  if (!s.result) await page.waitForSelector("#board .square.playable, #chess-buttons button:enabled, #pass:enabled");
  return s;
}

/** One decision by the human: a ringed square (a capture first), or a button (Stay rather
 *  than Transcend, no follow-up rather than one), or Pass. */
async function decide(s, clicks) {
  const b = s.board;
  const open = b.squares.filter((q) => q.open);
  const captures = open.filter((q) => q.piece && b.decision === "to");
  const square = captures[0] ?? open[0];
  const no = b.buttons.find((button) => button.play === "no");
  const hide = b.buttons.find((button) => button.play === "hide");
  if (b.decision === "transcend" || (no && b.decision !== "knight-from")) {
    await page.click("#word-no");
    clicks.button += 1;
  } else if (square) {
    await page.click(`#board .square.playable[data-square="${square.name}"]`);
    clicks.square += 1;
  } else if (hide) {
    await page.click("#word-hide");
    clicks.button += 1;
  } else {
    assert.ok(s.can_pass, `no choice but pass at ${s.position}`);
    await page.click("#pass");
    clicks.pass += 1;
  }
}

try {
  await page.goto(process.argv[2]);
  await page.waitForSelector('#board .square[data-square="d8"] [data-piece="q"]');
  let s = await state();
  assert.equal(s.game, "ghostchess");
  assert.equal(await page.title(), "Ghost Chess");
  assert.equal(s.human, "white");
  assert.equal(await page.locator("#board .square").count(), 64);
  assert.equal(await page.locator("#board .square.dark").count(), 32);
  assert.equal(await page.locator('#board .square[data-square="a1"].dark').count(), 1, "a1 is dark");
  assert.equal(await page.locator("#board [data-piece]").count(), 15, "fourteen White pieces and the Ghost");
  await checkBoard(s);

  // White's first turn: an Assault, by its button, the bishop c1 and the square e3.
  await page.click("#word-assault");
  await page.waitForSelector('#board .square.playable[data-square="c1"]');
  await page.click('#board .square.playable[data-square="c1"]');
  await page.waitForSelector('#board .square.playable[data-square="e3"]');
  await page.click('#board .square.playable[data-square="e3"]');
  s = await settle(s);
  assert.equal(s.moves[0], "c1e3^", "an Assault is the first turn");
  assert.equal(s.board.nexus, "none", "the Assault ends Full Nexus");
  const whiteClicks = { square: 2, button: 1, pass: 0 };
  while (!s.result) {
    await checkBoard(s);
    await decide(s, whiteClicks);
    s = await settle(s);
  }
  await checkBoard(s);
  console.log(`as White: ${s.moves.length} turns, ${s.result.text}`);

  // A new game as Black: the bot opens as White.
  await page.selectOption("#human", "black");
  await page.click('#new-game button[type="submit"], #new-game input[type="submit"]');
  s = await settle(s);
  assert.equal(s.human, "black");
  const clicks = { square: 0, button: 0, pass: 0 };
  let shot = false;
  while (!s.result) {
    assert.ok(humanTurn(s), "the page waits for the human");
    await checkBoard(s);
    if (!shot && s.board.decision === "to") {
      await page.screenshot({ path: screenshot, fullPage: true });
      shot = true;
    }
    await decide(s, clicks);
    s = await settle(s);
  }
  await page.waitForFunction(() => /wins/.test(document.querySelector("#status").textContent));
  await checkBoard(s);
  if (!shot) await page.screenshot({ path: screenshot, fullPage: true });
  assert.ok(clicks.square > 0, `squares clicked as Black: ${JSON.stringify(clicks)}`);
  assert.deepEqual(problems, [], "no script errors on the page");
  writeFileSync(join(dirname(screenshot), "game.json"), JSON.stringify({
    moves: s.moves, position: s.position, result: s.result.text,
  }));
  console.log(`as Black: ${s.moves.length} turns, ${s.result.text} (clicks ${JSON.stringify(clicks)})`);
} finally {
  await close();
}
