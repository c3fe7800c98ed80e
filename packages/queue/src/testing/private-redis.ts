import { type ChildProcess, spawn } from "node:child_process";
import { createConnection } from "node:net";
import { freePort } from "./ports";

/** A throwaway redis-server for tests that must restart or wipe Redis (never the shared one). */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Stops the server (SIGKILL when `hard`); its data is gone — it runs with no persistence. */
  stop(hard?: boolean): Promise<void>;
  /** Stops and starts it again on the same port: an empty Redis, like a restart without AOF. */
  restart(): Promise<void>;
  /** Synchronous SIGKILL, for process exit handlers. */
  killNow(): void;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tryOnce = () => {
      const socket = createConnection({ port, host: "127.0.0.1" }, () => {
        socket.end();
        resolve();
      });
      socket.on("error", () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server on ${port} did not start`));
        else setTimeout(tryOnce, 50);
      });
    };
    tryOnce();
  });
}

/**
 * Starts `redis-server --port <port> --save "" --appendonly no` (a free port of the test range when
 * none is given) and waits until it accepts connections.
 */
export async function startPrivateRedis(requested?: number): Promise<PrivateRedis> {
  const port = requested ?? (await freePort());
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--maxmemory-policy",
        "noeviction",
      ],
      { stdio: "ignore" },
    );
    await waitForPort(port, 5_000);
    // Someone else's server on that port would answer too: make sure ours is the one running.
    await new Promise((r) => setTimeout(r, 50));
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`redis-server could not use port ${port}`);
  };
  const stop = async (hard = false) => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once("exit", () => r()));
    c.kill(hard ? "SIGKILL" : "SIGTERM");
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    restart: async () => {
      await stop(true);
      await start();
    },
    killNow: () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
