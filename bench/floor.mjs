/**
 * The floor of `npm run bench`: read the files line by line (LF-split chunks, each line decoded
 * as UTF-8) and JSON.parse each JSON line (for an SSE line, the JSON of its `data:` field), nothing
 * else. Prints one JSON object: { lines, parsed, failed }.
 *
 * Usage: node bench/floor.mjs FILE...
 */

import { createReadStream } from 'node:fs';

let lines = 0;
let parsed = 0;
let failed = 0;

function parseLine(buf) {
  lines++;
  let text = buf.toString('utf8');
  if (text.startsWith('data:')) text = text.slice(5);
  else if (text.startsWith('event:') || text.trim() === '') return;
  try {
    JSON.parse(text);
    parsed++;
  } catch {
    failed++;
  }
}

for (const file of process.argv.slice(2)) {
  let rest = null;
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    let buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let from = 0;
    for (let nl = buf.indexOf(10, from); nl !== -1; nl = buf.indexOf(10, from)) {
      parseLine(buf.subarray(from, nl));
      from = nl + 1;
    }
    rest = from < buf.length ? Buffer.from(buf.subarray(from)) : null;
  }
  if (rest) parseLine(rest);
}
process.stdout.write(`${JSON.stringify({ lines, parsed, failed })}\n`);
