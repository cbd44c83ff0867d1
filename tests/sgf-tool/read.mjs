// Reads an SGF file with Sabaki's SGF parser (@sabaki/sgf, what the Sabaki GUI opens records
// with): a reader nobody here wrote, so a record `ghast` writes is tested the way a Go tool
// meets it.
// Usage: node read.mjs FILE
// Prints one JSON object: {root: the root node's properties, moves: ["B cd", "W ", ...]} with
// the main line's moves (an empty point is a pass). Exits non-zero on a file it cannot parse.
import sgf from "@sabaki/sgf";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("usage: node read.mjs FILE");
  process.exit(2);
}
const roots = sgf.parseFile(file);
if (roots.length !== 1) {
  console.error(`${file}: ${roots.length} game trees, expected 1`);
  process.exit(1);
}
const moves = [];
let node = roots[0].children[0];
while (node) {
  for (const colour of ["B", "W"]) {
    if (node.data[colour]) moves.push(`${colour} ${node.data[colour][0]}`);
  }
  node = node.children[0];
}
console.log(JSON.stringify({ root: roots[0].data, moves }));
