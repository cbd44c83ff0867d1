// Plays a whole game of Vastuz in `ghast serve` in headless Chromium by clicking: placements,
// and every take and put of the human's steals one click at a time, checking after each
// exchange that the page draws the stones and the choices the server describes. Writes the
// game's moves, final position and result beside the screenshot (game.json), for the test to
// replay through `ghast replay`.
// Usage: node play-vastuz.mjs <server url> <screenshot path>. Exits non-zero on the first mismatch.
import { openPage } from "./browser.mjs";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const { screenshot, page, problems, state, drawnAs, close } = await openPage("play-vastuz.mjs");
const key = (s) => `${s.position} ${s.board.decision} ${s.moves.length} ${s.board.taken}`;
const humanTurn = (s) => !s.result && s.to_move === s.human;

/** The page shows every stone of the server's board and rings exactly its choices. */
async function checkBoard(s) {
  const drawn = () => page.locator("#board .point").evaluateAll((gs) => gs.map((g) => ({
    name: g.dataset.point,
    stone: g.querySelector("[data-stone]")?.dataset.stone ?? null,
    open: g.dataset.open === "true",
  })));
  const served = s.board.points.map((p) => ({ name: p.name, stone: p.stone, open: p.open }));
  assert.deepEqual(await drawnAs(drawn, served), served, `the page draws the board of ${s.position}`);
}

const STEPS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

/** The group of `colour` that holds point `start` once a stone of that colour is there. */
function groupWith(s, colour, start) {
  const at = new Map(s.board.points.map((p) => [`${p.q},${p.r}`, p]));
  const seen = new Set([`${start.q},${start.r}`]);
  const todo = [start];
  while (todo.length) {
    const p = todo.pop();
    for (const [dq, dr] of STEPS) {
      const k = `${p.q + dq},${p.r + dr}`;
      const n = at.get(k);
      if (n && n.stone === colour && !seen.has(k)) {
        seen.add(k);
        todo.push(n);
      }
    }
  }
  return seen;
}

/** A placement that grows one of the human's stones to a pair beside an enemy pair (pairs
 *  all have one shape: a steal), else a new stone beside the bot's stones to grow later,
 *  else the first choice. */
function choose(s) {
  const open = s.board.points.filter((p) => p.open);
  if (s.board.decision !== "place") return open[0].name;
  const them = s.colours.find((c) => c !== s.human);
  const at = new Map(s.board.points.map((p) => [`${p.q},${p.r}`, p]));
  const neighbours = (keys) => [...keys].flatMap((k) => {
    const [q, r] = k.split(",").map(Number);
    return STEPS.map(([dq, dr]) => at.get(`${q + dq},${r + dr}`)).filter(Boolean);
  });
  const steals = (p) => {
    const mine = groupWith(s, s.human, p);
    if (mine.size !== 2) return false;
    return neighbours(mine).some((n) => n.stone === them && groupWith(s, them, n).size === mine.size);
  };
  const touches = (colour) => (p) => neighbours([`${p.q},${p.r}`]).some((n) => n.stone === colour);
  const newBeside = (p) => !touches(s.human)(p) && touches(them)(p);
  return (open.find(steals) ?? open.find(newBeside) ?? open[0]).name;
}

try {
  await page.goto(process.argv[2]);
  await page.waitForSelector('#board .point[data-point="d4"]');
  let s = await state();
  assert.equal(s.game, "vastuz");
  assert.equal(await page.title(), "Vastuz");
  assert.equal(await page.locator("#board .point").count(), 37, "a size-4 hexagon");
  assert.equal(await page.locator("#board .lattice").count(), 90, "its lattice lines");
  assert.equal(await page.locator("#board .point.open").count(), 37, "every point is open");
  assert.equal(await page.locator("#swap").isVisible(), false, "no swap for Black's first move");
  assert.equal(await page.locator("#name-first").textContent(), "Black");

  let steals = 0;
  let shot = false;
  while (!s.result) {
    assert.ok(humanTurn(s), "the page waits for the human");
    await checkBoard(s);
    const decision = s.board.decision;
    if (decision === "take") {
      steals += 1;
      assert.match(await page.locator("#status").textContent(), /must steal/);
    }
    if (decision === "put") {
      assert.ok(s.board.taken, "the taken stone is shown");
      assert.equal(await page.locator(`#board [data-taken="${s.board.taken}"]`).count(), 1);
    }
    const before = key(s);
    if (s.board.points.some((p) => p.open)) {
      await page.click(`#board .point.playable[data-point="${choose(s)}"]`);
    } else {
      assert.ok(s.can_pass, "no placement: the human must pass");
      await page.click("#pass");
    }
    for (;;) {
      s = await state();
      if (key(s) !== before && (s.result || humanTurn(s))) break;
      await page.waitForTimeout(25);
    }
    await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, s.moves.length);
    // Within a turn the move list does not grow: wait until the page has drawn this state.
    await page.waitForFunction((drawn) => [...document.querySelectorAll("#board .point")]
      .map((g) => `${g.dataset.point}${g.querySelector("[data-stone]")?.dataset.stone ?? ""}${g.dataset.open}`)
      .join(",") === drawn, s.board.points.map((p) => `${p.name}${p.stone ?? ""}${p.open}`).join(","));
    if (!s.result) await page.waitForSelector("#board .point.playable, #pass:enabled");
    if (/\+/.test(s.last?.move ?? "")) {
      const arrows = await page.locator("#board [data-steal]").count();
      assert.equal(arrows, s.last.move.split("+").length - 1, `an arrow per steal of ${s.last.move}`);
    }
    if (!shot && s.board.decision === "put") {
      // Mid-cascade: the thief, its targets, the taken stone and the destinations are marked.
      assert.ok((await page.locator("#board .stone.thief, #board .stone.pending").count()) > 0);
      await page.screenshot({ path: screenshot, fullPage: true });
      shot = true;
    }
  }
  assert.ok(steals > 0, `the human stole at least once, by clicking: ${s.moves.join(" ")}`);
  await page.waitForFunction(() => /wins|Draw/.test(document.querySelector("#status").textContent));
  await checkBoard(s);
  if (!shot) await page.screenshot({ path: screenshot, fullPage: true });
  assert.deepEqual(problems, [], "no script errors on the page");
  writeFileSync(join(dirname(screenshot), "game.json"), JSON.stringify({
    moves: s.moves, position: s.position, result: s.result.text,
  }));
  console.log(`played a whole Vastuz game in the page (${s.moves.length} moves, ${steals} steals by clicking)`);
} finally {
  await close();
}
