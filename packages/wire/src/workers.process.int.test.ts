import { readdirSync, readFileSync } from "node:fs";
import { Agent } from "node:http";
import { connect } from "node:net";
import { createApiKey, revokeApiKey } from "@breakwater/core";
import { freePort } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK, checkBody, createTenant, type Harness, startHarness, type Tenant } from "./testing/harness";
import {
  LEAN_MAIN,
  type Outcome,
  type ServerProcess,
  send,
  startServerProcess,
  steadyLoad,
  tally,
} from "./testing/load";

/**
 * SDK_API_WORKERS=2: one port served by a primary and two worker processes (node:cluster). A key
 * revoked reaches every worker, the metrics port sums the workers' counters, a crashed worker is
 * replaced, SIGHUP replaces the workers one at a time under load without one failed request, and
 * SIGTERM drains them all.
 */
let h: Harness;
let t: Tenant;
let server: ServerProcess | undefined;
let metricsPort: number;
beforeAll(async () => {
  h = await startHarness();
  t = await createTenant(h);
  const port = await freePort(3400, 3499);
  do metricsPort = await freePort(3400, 3499);
  while (metricsPort === port);
  server = await startServerProcess(LEAN_MAIN, port, {
    SDK_API_WORKERS: "2",
    SDK_METRICS_PORT: String(metricsPort),
  });
  await listening(2);
}, 90_000);
afterAll(async () => {
  if (server) for (const pid of workerPids()) process.kill(pid, "SIGKILL");
  server?.proc.kill("SIGKILL");
  await h?.close();
});

const count = (re: RegExp) => (server!.output().match(new RegExp(re.source, "g")) ?? []).length;
/** Resolves once `n` workers in all have printed that they listen. */
async function listening(n: number, ms = 60_000) {
  const until = Date.now() + ms;
  while (count(/"msg":"SDK API listening"/) < n) {
    if (Date.now() > until) throw new Error(`fewer than ${n} workers listening:\n${server!.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The primary's children: its workers. */
function workerPids(): number[] {
  const primary = server!.proc.pid;
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      // Not tsx's esbuild service, also a child: the workers run this same entry point.
      if (ppid === primary && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("main.ts"))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids.sort();
}

const headers = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

/** `n` checks, each on a connection of its own: the primary deals connections round-robin. */
async function freshChecks(key: string, n: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: false });
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push((await send(agent, server!.port, CHECK, headers(key), JSON.stringify(checkBody()))).status);
  return out;
}

async function requestsCounted(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let total = 0;
  for (const m of text.matchAll(
    /^breakwater_sdk_requests_total\{endpoint="unmatched",status="404"\} (\d+)/gm,
  ))
    total += Number(m[1]);
  return total;
}

async function unmatched(n: number) {
  const agent = new Agent({ keepAlive: false });
  for (let i = 0; i < n; i++)
    expect((await send(agent, server!.port, "/api/v1/nope", {}, "")).status).toBe(404);
}

describe("SDK_API_WORKERS=2", () => {
  it("runs two workers behind one port", () => {
    expect(workerPids()).toHaveLength(2);
    expect(server!.output()).toMatch(/SDK API primary started/);
  });

  it("a revoked key stops working on every worker within a second", async () => {
    const k = await createApiKey(h.sys, { projectId: t.projectId });
    // Both workers have it cached: checks over fresh connections alternate between them.
    await expect.poll(async () => (await freshChecks(k.apiKey, 6)).every((s) => s === 200)).toBe(true);
    await revokeApiKey(h.sys, { keyId: k.key.id });
    const started = Date.now();
    await expect
      .poll(async () => (await freshChecks(k.apiKey, 6)).every((s) => s === 401), { timeout: 2_000 })
      .toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("the metrics port sums both workers' counters; a crashed worker is restarted", async () => {
    const before = await requestsCounted();
    await unmatched(20);
    expect(await requestsCounted()).toBe(before + 20);

    // A worker killed outright takes its own counts with it: the sum drops by that worker's share,
    // which shows it was a sum over both.
    const [victim] = workerPids();
    process.kill(victim!, "SIGKILL");
    await server!.waitForOutput(/SDK API worker exited unexpectedly; restarting/, 5_000);
    await server!.waitForOutput(/SDK API worker restarted/, 10_000);
    await listening(3);
    expect(workerPids()).toHaveLength(2);
    expect(workerPids()).not.toContain(victim);
    const after = await requestsCounted();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before + 20);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/^breakwater_sdk_api_workers 2$/m);
    expect(text).toMatch(/^breakwater_sdk_api_worker_restarts_total\{reason="crash"\} 1$/m);
  }, 30_000);

  it("SIGHUP replaces the workers one at a time under load: no request fails", async () => {
    const old = workerPids();
    const countedBefore = await requestsCounted();
    const agent = new Agent({ keepAlive: true, maxSockets: 256, scheduling: "lifo" });
    const outcomes: Outcome[] = [];
    let done = false;
    const load = (async () => {
      // 300 checks/s in 1 s steps until the restart is over, and one more step after it.
      for (let extra = 0; extra < 2; ) {
        outcomes.push(
          ...(await steadyLoad({
            port: server!.port,
            path: CHECK,
            headers: headers(t.key),
            body: JSON.stringify(checkBody()),
            rate: 300,
            seconds: 1,
            agent,
          })),
        );
        if (done) extra++;
      }
    })();
    await new Promise((r) => setTimeout(r, 500));
    server!.proc.kill("SIGHUP");
    await server!.waitForOutput(/rolling restart done/, 60_000);
    done = true;
    await load;
    agent.destroy();
    console.log(`rolling restart under 300 checks/s: ${JSON.stringify(tally(outcomes))}`);
    expect(outcomes.length).toBeGreaterThan(900);
    expect(tally(outcomes)).toEqual({ 200: outcomes.length });
    const now = workerPids();
    expect(now).toHaveLength(2);
    for (const pid of old) expect(now).not.toContain(pid);
    // The replaced workers' counts stay in the sums.
    expect(await requestsCounted()).toBe(countedBefore);
  }, 90_000);

  it("SIGTERM drains every worker and exits; the port then refuses connections", async () => {
    const s = server!;
    const t0 = performance.now();
    s.proc.kill("SIGTERM");
    const exit = await s.exited;
    const ms = exit.at - t0;
    console.log(`cluster SIGTERM: exit ${exit.code} after ${Math.round(ms)} ms`);
    expect(exit.code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    const code = await new Promise<string>((resolve) => {
      const c = connect(s.port, "127.0.0.1");
      c.once("connect", () => {
        c.destroy();
        resolve("connected");
      });
      c.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(code).toBe("ECONNREFUSED");
    expect(workerPids()).toEqual([]);
    server = undefined;
  }, 30_000);
});
