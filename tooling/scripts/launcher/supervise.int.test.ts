import { afterEach, describe, expect, it, vi } from "vitest";
import { restartDelayMs, Service, Supervisor } from "./service";

const policy = { initialDelayMs: 100, maxDelayMs: 400, resetAfterMs: 60_000 };
const node = (code: string) =>
  new Service({
    name: "svc",
    command: process.execPath,
    args: ["-e", code],
    cwd: process.cwd(),
    env: {},
    echo: false,
    stopTimeoutMs: 2_000,
  });

let running: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.stop()));
  running = [];
});

describe("launcher supervisor", () => {
  it("backs off exponentially up to the cap", () => {
    expect([1, 2, 3, 4, 5].map((n) => restartDelayMs(n, policy))).toEqual([100, 200, 400, 400, 400]);
  });

  it("restarts a crashing process with backoff and logs every crash", async () => {
    const lines: string[] = [];
    const sup = new Supervisor(node("process.exit(3)"), { log: (l) => lines.push(l), policy });
    running.push(sup);
    sup.start();
    await vi.waitFor(() => expect(sup.restartCount).toBeGreaterThanOrEqual(4), {
      timeout: 15_000,
      interval: 20,
    });
    const crashes = lines.filter((l) => l.includes("exited unexpectedly"));
    expect(crashes[0]).toMatch(
      /^svc exited unexpectedly \(exit code 3\) after [\d.]+ s; restarting in 100 ms \(restart 1\)$/,
    );
    expect(crashes[1]).toMatch(/restarting in 200 ms \(restart 2\)$/);
    expect(crashes[2]).toMatch(/restarting in 400 ms \(restart 3\)$/);
    expect(crashes[3]).toMatch(/restarting in 400 ms \(restart 4\)$/);
    expect(lines.filter((l) => l === "svc restarting").length).toBeGreaterThanOrEqual(3);
  });

  it("brings a killed long-running process back with a new pid, and stop() ends supervision", async () => {
    const lines: string[] = [];
    const sup = new Supervisor(node("setInterval(() => {}, 1000)"), { log: (l) => lines.push(l), policy });
    running.push(sup);
    sup.start();
    const first = sup.service.pid!;
    expect(sup.service.running).toBe(true);
    process.kill(first, "SIGKILL");
    await vi.waitFor(
      () => {
        expect(sup.service.pid).not.toBe(first);
        expect(sup.service.running).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(lines[0]).toMatch(/^svc exited unexpectedly \(signal SIGKILL\)/);
    await sup.stop();
    expect(sup.service.running).toBe(false);
    expect(lines.filter((l) => l.includes("exited unexpectedly"))).toHaveLength(1); // a requested stop is not a crash
  });
});
