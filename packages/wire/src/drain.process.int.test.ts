import { Agent, get } from "node:http";
import { connect } from "node:net";
import { freePort } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK, checkBody, createTenant, type Harness, startHarness, type Tenant } from "./testing/harness";
import {
  DASHBOARD_PROCESS,
  LEAN_MAIN,
  type Outcome,
  type ServerProcess,
  startServerProcess,
  steadyLoad,
  tally,
} from "./testing/load";

/**
 * SIGTERM under load, on a real process: the lean SDK API server (one process) and the
 * dashboard's port. Budget checks at a steady 300/s over keep-alive connections; the signal comes
 * a second in. Every request sent before it is answered 200, none is reset, connections tried
 * afterwards are refused, and the process exits well within SHUTDOWN_TIMEOUT_MS.
 */
let h: Harness;
let t: Tenant;
let server: ServerProcess | undefined;
beforeAll(async () => {
  h = await startHarness();
  t = await createTenant(h);
});
afterAll(async () => {
  server?.proc.kill("SIGKILL");
  await h?.close();
});

/** Resolves with the error code of a fresh TCP connection to `port` (or "connected"). */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve("connected");
    });
    s.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** A check whose body arrives in two parts, `gapMs` apart: in flight for that long. */
function slowCheck(port: number, key: string, gapMs: number) {
  return new Promise<{ status: number; connection?: string; body: string; error?: string }>(
    (resolve, reject) => {
      const body = JSON.stringify(checkBody());
      const s = connect(port, "127.0.0.1", () => {
        s.write(
          `POST ${CHECK} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
        );
        // The server has the request's head: it is in flight until the rest comes.
        setTimeout(() => s.write(body.slice(20)), gapMs);
      });
      let text = "";
      s.on("data", (c: Buffer) => {
        text += c.toString();
      });
      s.on("error", reject);
      s.on("close", () => {
        const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
        const connection = /\r\nconnection: ([^\r]+)/i.exec(text)?.[1];
        resolve({ status, connection, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
      });
    },
  );
}

/** GET over a keep-alive connection: the status and the Connection header of the answer. */
function getPage(port: number, path: string) {
  return new Promise<{ status: number; connection?: string; error?: string }>((resolve, reject) => {
    const agent = new Agent({ keepAlive: true });
    get({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => {
        agent.destroy();
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
      });
    }).on("error", reject);
  });
}

async function drainUnderLoad(kind: "lean" | "dashboard") {
  const port = await freePort(3400, 3499);
  server =
    kind === "lean"
      ? await startServerProcess(LEAN_MAIN, port, { SDK_API_WORKERS: "1" })
      : await startServerProcess(DASHBOARD_PROCESS, port, {}, [String(port)]);
  const s = server;
  const headers = { authorization: `Bearer ${t.key}`, "content-type": "application/json" };
  const body = JSON.stringify(checkBody());
  // The key is known and the runtime warm before the load starts.
  const warm = await fetch(`http://127.0.0.1:${port}${CHECK}`, { method: "POST", headers, body });
  expect(warm.status).toBe(200);

  let signalledAt = 0;
  const load = steadyLoad({ port, path: CHECK, headers, body, rate: 300, seconds: 2 });
  await new Promise((r) => setTimeout(r, 800));
  // A check in flight across the signal: its head now, the rest of its body 300 ms after the signal.
  const inFlight = slowCheck(port, t.key, 500).catch((err: NodeJS.ErrnoException) => ({
    status: 0,
    error: err.code ?? err.message,
    connection: undefined,
    body: "",
  }));
  // The dashboard's stand-in answers this page after 800 ms: in flight across the signal.
  const page =
    kind === "dashboard"
      ? getPage(port, "/slow-page").catch((err: NodeJS.ErrnoException) => ({
          status: 0,
          connection: undefined,
          error: err.code ?? err.message,
        }))
      : undefined;
  await new Promise((r) => setTimeout(r, 100));
  signalledAt = performance.now();
  s.proc.kill("SIGTERM");
  await s.waitForOutput(kind === "lean" ? /SDK API draining/ : /dashboard draining/, 5_000);
  const refused = await tryConnect(port);
  const [outcomes, slow, exit, pageAnswer] = await Promise.all([load, inFlight, s.exited, page]);
  if (slow.error || pageAnswer?.error) console.log(`server output:\n${s.output()}`);

  const before = outcomes.filter((o) => o.sentAt < signalledAt);
  const after = outcomes.filter((o) => o.sentAt >= signalledAt);
  const summary = {
    before: tally(before),
    after: tally(after),
    closeAnswers: outcomes.filter((o) => o.connection === "close").length,
    exitMs: Math.round(exit.at - signalledAt),
    code: exit.code,
  };
  console.log(`${kind} SIGTERM under 300 checks/s: ${JSON.stringify(summary)}`);
  for (const o of outcomes.filter((o) => o.error && o.error !== "ECONNREFUSED"))
    console.log(
      `reset: sent ${Math.round(o.sentAt - signalledAt)} ms, failed ${Math.round(o.answeredAt - signalledAt)} ms from the signal, reused ${o.reused}, ${o.error}`,
    );
  return { before, after, refused, slow, exit, exitMs: exit.at - signalledAt, outcomes, page: pageAnswer };
}

function expectGraceful(r: Awaited<ReturnType<typeof drainUnderLoad>>) {
  // ~300 requests before the signal: every one answered 200.
  expect(r.before.length).toBeGreaterThan(250);
  expect(tally(r.before)).toEqual({ 200: r.before.length });
  // Afterwards: answered (on a kept-alive connection, with Connection: close) or refused; never reset.
  const bad = r.after.filter((o: Outcome) => o.status !== 200 && o.error !== "ECONNREFUSED");
  expect(bad).toEqual([]);
  expect(r.after.some((o) => o.error === "ECONNREFUSED")).toBe(true);
  // The answers given while draining close their connections.
  expect(r.outcomes.filter((o) => o.connection === "close").length).toBeGreaterThan(0);
  // A new connection after the drain began is refused, not accepted and reset.
  expect(r.refused).toBe("ECONNREFUSED");
  // The request in flight across the signal was answered, and its connection closed after it.
  expect(r.slow.error).toBeUndefined();
  expect(r.slow.status).toBe(200);
  expect(r.slow.connection).toBe("close");
  expect(JSON.parse(r.slow.body).allowed).toBe(true);
  expect(r.exit.code).toBe(0);
  // SHUTDOWN_TIMEOUT_MS is 10 s; idle connections go after 2.3 s, so this is about 2–3 s.
  expect(r.exitMs).toBeLessThan(10_000);
}

describe("SIGTERM drains the SDK API under load", () => {
  it("the lean SDK API server (one process)", async () => {
    expectGraceful(await drainUnderLoad("lean"));
  }, 60_000);

  it("the dashboard's port (/api/v1), with a page in flight", async () => {
    const r = await drainUnderLoad("dashboard");
    expectGraceful(r);
    // A page Next.js was still rendering when the signal came was answered before it stopped,
    // and its connection closed after it.
    expect(r.page).toEqual({ status: 200, connection: "close" });
  }, 60_000);
});
