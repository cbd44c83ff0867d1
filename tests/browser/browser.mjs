// Headless Chromium for the page tests, in a throwaway profile, as Debian installs it, and
// what every page script needs: its arguments, the page, the state the server holds.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

/** A browser context and the function that closes it and removes its profile. */
export async function openBrowser() {
  const profile = mkdtempSync(join(tmpdir(), "ghast-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  context.setDefaultTimeout(20_000);
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/** Reads `<server url> <screenshot path>` from the command line of `script` and opens a page:
 *  `problems` collects script errors on it, `state()` reads the server's state of the page's
 *  game, `moveCount(n)` waits until the page lists `n` moves, `drawnAs` until it draws what
 *  is expected. */
export async function openPage(script) {
  const [url, screenshot] = process.argv.slice(2);
  assert.ok(url && screenshot, `usage: node ${script} <server url> <screenshot path>`);
  const { context, close } = await openBrowser();
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  const state = async () => (await page.request.get(`${url}api/state`)).json();
  const moveCount = (n) => page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, n);
  /** What `read()` gives once it equals `expected`, or what it gives after 15 seconds: the
   *  server holds its new state before the page has drawn its answer to a click. */
  const drawnAs = async (read, expected) => {
    const deadline = Date.now() + 15_000;
    let seen = await read();
    while (!isDeepStrictEqual(seen, expected) && Date.now() < deadline) {
      await page.waitForTimeout(25);
      seen = await read();
    }
    return seen;
  };
  return { url, screenshot, page, problems, state, moveCount, drawnAs, close };
}
