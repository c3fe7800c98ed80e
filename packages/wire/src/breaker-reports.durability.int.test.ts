import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { processEnv } from "@breakwater/config";
import { HEARTBEAT_FLUSH_MS } from "@breakwater/core";
import { freePort } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakerPath, createTenant, type Harness, post, startHarness } from "./testing/harness";

/**
 * What a breaker report's 202 promises, shown on a real lean SDK API process killed with SIGKILL
 * in the middle of a load of heartbeats and transitions: every acknowledged transition is in
 * Postgres with its one event, and the last-seen times lost are at most the last flush window's.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, "main.ts");

let h: Harness;
let proc: ChildProcess | undefined;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  proc?.kill("SIGKILL");
  await h?.close();
});

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    // One process: its SIGKILL is the crash this suite is about (a cluster's workers would exit too).
    env: {
      ...processEnv(),
      SDK_PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      SDK_API_WORKERS: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`SDK API exited: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`SDK API did not come up: ${stderr}`);
}

interface Acked {
  instance: string;
  state: "closed" | "open";
  reportedAt: string;
  answeredAt: number;
}

describe("a breaker report's 202 survives the SDK API process being SIGKILLed", () => {
  it("every acknowledged transition is stored once; heartbeats older than a flush window are stored", async () => {
    const t = await createTenant(h);
    const port = await freePort(3400, 3499);
    proc = await startServer(port);
    // The harness's requests, sent to the killed process instead of the harness's own server.
    const server = { ...h, url: `http://127.0.0.1:${port}` };
    const instances = Array.from({ length: 24 }, (_, i) => `pod-${i}`);
    const acked: Acked[] = [];
    let clock = Date.now() - 120_000;
    const send = async (instance: string, state: "closed" | "open") => {
      clock += 1; // every report is newer than every one before it
      const reportedAt = new Date(clock).toISOString();
      const res = await post(
        server,
        breakerPath(t.projectId),
        {
          provider: "openai",
          state,
          failure_count: state === "open" ? 5 : 0,
          success_count: 1,
          reported_at: reportedAt,
          sdk_instance_id: instance,
        },
        t.key,
      );
      if (res.status === 202) acked.push({ instance, state, reportedAt, answeredAt: Date.now() });
    };
    for (const i of instances) await send(i, "closed");

    // Load: heartbeats from every instance, and each instance flips its breaker now and then.
    const state = new Map(instances.map((i) => [i, "closed" as "closed" | "open"]));
    let stop = false;
    const senders = instances.map(async (i, n) => {
      for (let round = 0; !stop; round++) {
        if ((round + n) % 11 === 0) state.set(i, state.get(i) === "closed" ? "open" : "closed");
        await send(i, state.get(i)!).catch(() => undefined); // refused once killed
      }
    });
    await new Promise((r) => setTimeout(r, 4_000));
    const killedAt = Date.now();
    proc.kill("SIGKILL");
    stop = true;
    await Promise.all(senders);
    proc = undefined;

    // Acknowledged transitions: each report whose state differs from the instance's acked report before it.
    const byInstance = new Map<string, Acked[]>();
    for (const a of acked) byInstance.set(a.instance, [...(byInstance.get(a.instance) ?? []), a]);
    let transitionsAcked = 0;
    let heartbeatsChecked = 0;
    for (const [instance, list] of byInstance) {
      list.sort((a, b) => a.reportedAt.localeCompare(b.reportedAt));
      const changes = list.filter((a, k) => k === 0 || a.state !== list[k - 1]!.state);
      transitionsAcked += changes.length;
      const stored = await h.db.breakerTransition.findMany({
        where: { projectId: t.projectId, provider: "openai", sdkInstanceId: instance },
        orderBy: { reportedAt: "asc" },
      });
      // Every acknowledged change is stored, exactly once, in order (a change whose answer was
      // lost to the kill may be stored too: it was committed, just not acknowledged).
      const storedAt = stored.map((s) => s.reportedAt.toISOString());
      for (const c of changes) expect(storedAt.filter((at) => at === c.reportedAt)).toHaveLength(1);
      for (let k = 1; k < stored.length; k++) expect(stored[k]!.fromState).toBe(stored[k - 1]!.toState);
      const opened = changes.filter((c) => c.state === "open");
      const events = await h.db.webhookEvent.findMany({
        where: { projectId: t.projectId, type: "circuit_breaker_opened" },
      });
      const mine = events.filter(
        (e) => (e.payload as { data?: { sdk_instance_id?: string } }).data?.sdk_instance_id === instance,
      );
      expect(mine.length).toBeGreaterThanOrEqual(opened.length);
      expect(mine.length).toBeLessThanOrEqual(stored.filter((s) => s.toState === "open").length);

      // Last-seen: a heartbeat answered more than two flush windows before the kill is stored.
      const snap = await h.db.breakerSnapshot.findUniqueOrThrow({
        where: {
          projectId_provider_sdkInstanceId: {
            projectId: t.projectId,
            provider: "openai",
            sdkInstanceId: instance,
          },
        },
      });
      const settled = list.filter((a) => a.answeredAt < killedAt - 2 * HEARTBEAT_FLUSH_MS - 500);
      if (settled.length > 0) {
        heartbeatsChecked++;
        expect(snap.reportedAt.toISOString() >= settled.at(-1)!.reportedAt).toBe(true);
      }
      // The stored state is that of an acknowledged or committed report, never older than the last acked change.
      expect(snap.reportedAt.toISOString() >= changes.at(-1)!.reportedAt).toBe(true);
    }
    expect(acked.length).toBeGreaterThan(500);
    expect(transitionsAcked).toBeGreaterThan(instances.length * 2);
    expect(heartbeatsChecked).toBe(instances.length);
  }, 60_000);
});
