// Preloaded by bench/memory.bench.ts (`node --import <this> bin/routecert.js ...`): on exit, writes
// the process's peak RSS to stderr as `ROUTECERT_PEAK_RSS_KB <n>`. Changes nothing else.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `ROUTECERT_PEAK_RSS_KB ${process.resourceUsage().maxRSS}\n`);
});
