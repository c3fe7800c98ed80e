import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { processEnv } from "@breakwater/config";

/**
 * What the process suites need to stop and replace SDK API servers under load: a real server
 * process (the lean server's entry point, or the dashboard's port), and a steady loopback load of
 * requests over keep-alive connections that records what became of each one.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
export const LEAN_MAIN = path.join(here, "..", "main.ts");
export const DASHBOARD_PROCESS = path.join(here, "dashboard-process.ts");

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once a line matching `re` has been printed. */
  waitForOutput(re: RegExp, ms?: number): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) and when it exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** Starts `script` (TypeScript, through tsx) and waits until GET /health on `port` answers 200. */
export async function startServerProcess(
  script: string,
  port: number,
  env: Record<string, string>,
  args: string[] = [],
): Promise<ServerProcess> {
  const proc = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...processEnv(), SDK_PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const waiters = new Set<() => void>();
  const onData = (c: Buffer) => {
    out += c.toString();
    for (const w of waiters) w();
  };
  proc.stdout?.on("data", onData);
  proc.stderr?.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  const waitForOutput = (re: RegExp, ms = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!re.test(out)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no output matching ${re} within ${ms} ms:\n${out.slice(-3000)}`));
      }, ms);
      waiters.add(check);
      check();
    });
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { proc, port, output: () => out, waitForOutput, exited };
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill("SIGKILL");
  throw new Error(`server did not answer /health within 60 s:\n${out}`);
}

export interface Outcome {
  /** performance.now() when the request got its connection (kept-alive, or a new one connecting). */
  sentAt: number;
  /** HTTP status, or 0 when the request failed. */
  status: number;
  /** The failure's code (ECONNREFUSED, ECONNRESET, EPIPE, …) when it failed. */
  error?: string;
  /** The answer's Connection header. */
  connection?: string;
  /** Whether it went over a kept-alive connection. */
  reused: boolean;
  /** performance.now() when it was answered or failed. */
  answeredAt: number;
}

/** One POST over `agent`; never rejects. */
export function send(
  agent: Agent,
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<Outcome> {
  return new Promise((resolve) => {
    // Sent when it gets its connection (a kept-alive one, or a new one that starts connecting): a
    // request the agent still queues, every connection busy, has not been sent.
    let sentAt = performance.now();
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        timeout: 15_000,
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            sentAt,
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            reused: req.reusedSocket,
            answeredAt: performance.now(),
          }),
        );
        res.on("error", (err: NodeJS.ErrnoException) =>
          resolve({
            sentAt,
            status: 0,
            error: err.code ?? err.message,
            reused: req.reusedSocket,
            answeredAt: performance.now(),
          }),
        );
      },
    );
    req.once("socket", () => {
      sentAt = performance.now();
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (err: NodeJS.ErrnoException) =>
      resolve({
        sentAt,
        status: 0,
        // "socket hang up" is a connection closed under the request: a reset by another name.
        error: err.code ?? err.message,
        reused: req.reusedSocket,
        answeredAt: performance.now(),
      }),
    );
    req.end(body);
  });
}

/**
 * An open loop: `rate` requests a second for `seconds`, each sent on schedule whatever happened to
 * the ones before, over keep-alive connections (a new one only when every open one is busy, as
 * an SDK's pool does). Resolves with every request's outcome once all have ended.
 */
export async function steadyLoad(opts: {
  port: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  rate: number;
  seconds: number;
  agent?: Agent;
}): Promise<Outcome[]> {
  const agent = opts.agent ?? new Agent({ keepAlive: true, maxSockets: 256, scheduling: "lifo" });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const pending: Promise<Outcome>[] = [];
  const start = performance.now();
  try {
    for (let i = 0; i < total; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(send(agent, opts.port, opts.path, opts.headers, opts.body));
    }
    return await Promise.all(pending);
  } finally {
    if (!opts.agent) agent.destroy();
  }
}

/** Outcomes tallied: answered by status, failed by error code. */
export function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of outcomes) {
    const k = o.status ? String(o.status) : (o.error ?? "error");
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
