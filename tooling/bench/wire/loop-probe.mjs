// Preloaded into a server under test (`node --import <this file> server.js`, profiled runs only):
// records event-loop stalls and GC pauses without touching the server's code, and writes them as
// JSON to LOOP_PROBE_OUT when the process exits. Tail latency is made of exactly these.
import { writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";

const out = process.env.LOOP_PROBE_OUT;
if (out) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const stalls = []; // [at ms since start, stall ms] for every stall ≥ 5 ms
  // The stretches between two SIGUSR2s (the bench's measured rounds), and what happened in them:
  // stalls of ≥ 2 ms and every GC pause. Tail latency within a measured stretch is made of these.
  const windows = []; // [start, end] ms since start
  let inWindow = false;
  const windowStalls = []; // [stall ms, CPU ms used over it, involuntary context switches], ≥ 2 ms
  const windowGc = []; // pause ms
  const TICK = 2;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let lastIvcsw = 0;
  setInterval(() => {
    const now = performance.now();
    const stall = now - last - TICK;
    if (stall >= 5) stalls.push([Math.round(now), Math.round(stall * 10) / 10]);
    if (inWindow) {
      // CPU the process used over the stall (all threads) and how often the kernel preempted it:
      // a stall the process spent running is its own work; one it spent off the CPU is not.
      const cpu = process.cpuUsage();
      const ivcsw = process.resourceUsage().involuntaryContextSwitches;
      if (stall >= 2) {
        const usedMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
        windowStalls.push([Math.round(stall * 10) / 10, Math.round(usedMs * 10) / 10, ivcsw - lastIvcsw]);
      }
      lastCpu = cpu;
      lastIvcsw = ivcsw;
    }
    last = now;
  }, TICK).unref();
  process.on("SIGUSR2", () => {
    inWindow = !inWindow;
    if (inWindow) windows.push([Math.round(performance.now()), -1]);
    else if (windows.length > 0) windows[windows.length - 1][1] = Math.round(performance.now());
  });

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
      if (inWindow) windowGc.push(Math.round(e.duration * 100) / 100);
      if (e.duration >= 5) longGc.push([Math.round(e.startTime), kind, Math.round(e.duration * 10) / 10]);
    }
  }).observe({ entryTypes: ["gc"] });

  // Where a request's time goes inside the server, for the stretch between two SIGUSR2s (the
  // bench sends them around the open loop): from the request event to the first write on the
  // Redis connection after it, from that write to the next reply data Node reads, and from that
  // read to res.end. Matched by time, not by request: at an open loop's low concurrency almost
  // every request has the loop to itself; pairs that cannot match (a reply read after the answer
  // ended) are skipped.
  const redisPort = Number(process.env.LOOP_PROBE_REDIS_PORT);
  let phasesOn = false;
  const reqs = [];
  const writes = [];
  const reads = [];
  let phases = null;
  if (redisPort) {
    const writeGeneric = net.Socket.prototype._writeGeneric;
    net.Socket.prototype._writeGeneric = function (...a) {
      if (phasesOn && this.remotePort === redisPort) writes.push(performance.now());
      return writeGeneric.apply(this, a);
    };
    const push = net.Socket.prototype.push;
    net.Socket.prototype.push = function (chunk, ...rest) {
      if (phasesOn && chunk && this.remotePort === redisPort) reads.push(performance.now());
      return push.call(this, chunk, ...rest);
    };
    const emit = http.Server.prototype.emit;
    http.Server.prototype.emit = function (event, ...args) {
      if (phasesOn && event === "request") {
        const res = args[1];
        const rec = [performance.now(), -1];
        reqs.push(rec);
        const end = res.end;
        res.end = function (...a) {
          rec[1] = performance.now();
          return end.apply(this, a);
        };
      }
      return emit.call(this, event, ...args);
    };
    process.on("SIGUSR2", () => {
      phasesOn = !phasesOn;
      if (!phasesOn) phases = phaseSummary(reqs, writes, reads);
    });
  }

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
        phases,
        windows,
        windowStalls,
        windowGc,
      }),
    );
  });
}

/** Percentiles (µs) of the three in-server phases of each matched request. */
function phaseSummary(reqs, writes, reads) {
  const toRedis = [];
  const redisTrip = [];
  const toAnswer = [];
  const total = [];
  let w = 0;
  let r = 0;
  for (const [t0, t3] of reqs) {
    if (t3 < 0) continue;
    while (w < writes.length && writes[w] < t0) w++;
    if (w >= writes.length) break;
    const t1 = writes[w];
    while (r < reads.length && reads[r] < t1) r++;
    if (r >= reads.length) break;
    const t2 = reads[r];
    if (t2 > t3) continue;
    toRedis.push(t1 - t0);
    redisTrip.push(t2 - t1);
    toAnswer.push(t3 - t2);
    total.push(t3 - t0);
  }
  const q = (a) => {
    a.sort((x, y) => x - y);
    const at = (p) => Math.round((a[Math.floor(p * (a.length - 1))] ?? 0) * 1000);
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
  };
  return {
    matched: total.length,
    requests: reqs.length,
    toRedis: q(toRedis),
    redisTrip: q(redisTrip),
    toAnswer: q(toAnswer),
    total: q(total),
  };
}
