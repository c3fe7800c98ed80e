// Preloaded into a server under test (`node --import <this file> server.js`, profiled runs only):
// records event-loop stalls and GC pauses without touching the server's code, and writes them as
// JSON to LOOP_PROBE_OUT when the process exits. Tail latency is made of exactly these.
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";

const out = process.env.LOOP_PROBE_OUT;
if (out) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const stalls = []; // [at ms since start, stall ms] for every stall ≥ 5 ms
  const TICK = 2;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const stall = now - last - TICK;
    if (stall >= 5) stalls.push([Math.round(now), Math.round(stall * 10) / 10]);
    last = now;
  }, TICK).unref();

  const KINDS = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb", 16: "major" };
  const gc = {}; // kind -> { count, totalMs, maxMs }
  const longGc = []; // [at, kind, ms] for pauses ≥ 5 ms
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = KINDS[e.detail?.kind ?? e.kind] ?? "other";
      gc[kind] ??= { count: 0, totalMs: 0, maxMs: 0 };
      const g = gc[kind];
      g.count++;
      g.totalMs += e.duration;
      g.maxMs = Math.max(g.maxMs, e.duration);
      if (e.duration >= 5) longGc.push([Math.round(e.startTime), kind, Math.round(e.duration * 10) / 10]);
    }
  }).observe({ entryTypes: ["gc"] });

  process.on("exit", () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    writeFileSync(
      out,
      JSON.stringify({
        loopDelay: {
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          p999: ms(delay.percentile(99.9)),
          max: ms(delay.max),
        },
        stalls,
        gc: Object.fromEntries(
          Object.entries(gc).map(([k, g]) => [
            k,
            { count: g.count, totalMs: Math.round(g.totalMs), maxMs: Math.round(g.maxMs * 10) / 10 },
          ]),
        ),
        longGc,
        heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6),
      }),
    );
  });
}
