// Plays one whole Go game between two GTP engines, driven by Sabaki's GTP library
// (@sabaki/gtp, the controller the Sabaki GUI drives engines with): a GTP tool nobody here
// wrote, so `ghast gtp` is tested the way a GUI meets it. Every command must be accepted.
// Usage: node drive.mjs SIZE KOMI MAX_MOVES 'BLACK ENGINE COMMAND' 'WHITE ENGINE COMMAND'
// Prints one JSON object: {moves, end: "passes" | "moves" | "<colour> resigned", scores}, where
// scores holds each engine's final_score. Exits non-zero, naming the command, on the first
// refusal.
import gtp from "@sabaki/gtp";

const [size, komi, maxMoves, blackCommand, whiteCommand] = process.argv.slice(2);
if (!whiteCommand) {
  console.error("usage: node drive.mjs SIZE KOMI MAX_MOVES 'BLACK COMMAND' 'WHITE COMMAND'");
  process.exit(2);
}

function start(commandLine) {
  const [program, ...args] = commandLine.split(/\s+/).filter(Boolean);
  const controller = new gtp.Controller(program, args);
  controller.start();
  return controller;
}

const engines = { black: start(blackCommand), white: start(whiteCommand) };

async function send(colour, name, ...args) {
  const response = await engines[colour].sendCommand({ name, args });
  if (response.error) {
    throw new Error(`${colour}'s engine refused "${[name, ...args].join(" ")}": ${response.content}`);
  }
  return response.content.trim();
}

let status = 0;
try {
  for (const colour of ["black", "white"]) {
    await send(colour, "boardsize", size);
    await send(colour, "clear_board");
    await send(colour, "komi", komi);
  }
  const moves = [];
  let colour = "black";
  let passes = 0;
  let end = "moves";
  while (moves.length < Number(maxMoves)) {
    const other = colour === "black" ? "white" : "black";
    const move = (await send(colour, "genmove", colour)).toLowerCase();
    if (move === "resign") {
      end = `${colour} resigned`;
      break;
    }
    moves.push(move);
    await send(other, "play", colour, move);
    passes = move === "pass" ? passes + 1 : 0;
    if (passes === 2) {
      end = "passes";
      break;
    }
    colour = other;
  }
  const scores = {
    black: await send("black", "final_score"),
    white: await send("white", "final_score"),
  };
  console.log(JSON.stringify({ moves, end, scores }));
} catch (error) {
  console.error(String(error));
  status = 1;
}
await Promise.all(Object.values(engines).map((engine) => engine.stop()));
process.exit(status);
