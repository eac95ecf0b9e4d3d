/**
 * Preloaded into a server the memory benchmarks measure (`node --expose-gc --import ./bench/memory-probe.ts …`): on
 * SIGUSR2 it collects garbage twice and prints one line `MEMORY {process.memoryUsage()}` on stderr, so a benchmark can
 * read the retained memory of a process it did not write (scripts/serve.ts, what `npm start` runs).
 * @module
 */
process.on('SIGUSR2', () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) {
    process.stderr.write('MEMORY {"error":"start node with --expose-gc"}\n');
    return;
  }
  collect();
  collect();
  process.stderr.write(`MEMORY ${JSON.stringify(process.memoryUsage())}\n`);
});
