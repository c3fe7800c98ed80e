/**
 * `bench:fleet --stale N --heartbeats R`: the seeded fleet keeps reporting while the reads are
 * measured. The SQL seed bypasses the SDK API, so Redis first learns every live snapshot (as the
 * intake would have settled it), then a lean SDK API process of its own takes R heartbeats a
 * second from heartbeat-flow.ts, a sender process of its own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { processEnv } from "@breakwater/config";
import { type CircuitState, createBudgetRedis, settleSnapshots } from "@breakwater/core";
import pg from "pg";
import { startSdkApi } from "./burst";

const here = path.dirname(fileURLToPath(import.meta.url));

export interface FlowHandle {
  /** Stops the sender and its SDK API; what the sender sent and how it was answered. */
  stop: () => Promise<Record<string, unknown>>;
}

export async function startHeartbeatFlow(o: {
  databaseUrl: string;
  env: Record<string, string | undefined>;
  redisUrl: string;
  projects: { id: string; apiKey: string }[];
  perProject: number;
  providers: string[];
  rate: number;
  log: (s: string) => void;
  cleanups: (() => Promise<unknown> | unknown)[];
}): Promise<FlowHandle> {
  const t0 = Date.now();
  const db = new pg.Pool({ connectionString: o.databaseUrl, max: 2 });
  const redis = createBudgetRedis({ REDIS_URL: o.redisUrl });
  try {
    const { rows } = await db.query<{
      project_id: string;
      provider: string;
      sdk_instance_id: string;
      state: CircuitState;
      reported_at: Date;
      received_at: Date;
    }>(
      `SELECT project_id, provider, sdk_instance_id, state::text AS state, reported_at, received_at
       FROM breaker_snapshots WHERE sdk_instance_id LIKE 'live-%'`,
    );
    for (let at = 0; at < rows.length; at += 3_000) {
      await settleSnapshots(
        redis,
        rows.slice(at, at + 3_000).map((r) => ({
          projectId: r.project_id,
          provider: r.provider,
          sdkInstanceId: r.sdk_instance_id,
          state: r.state,
          reportedAt: r.reported_at,
          receivedAt: r.received_at,
        })),
      );
    }
    o.log(
      `heartbeats: Redis learned ${rows.length} live snapshots in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    redis.disconnect();
    await db.end();
  }

  const sdk = await startSdkApi(o.env);
  const stopSdk = () =>
    new Promise<void>((resolve) => {
      if (sdk.proc.exitCode !== null) return resolve();
      sdk.proc.once("exit", () => resolve());
      sdk.proc.kill("SIGTERM");
    });
  o.cleanups.push(stopSdk);
  const flow = JSON.stringify({
    port: sdk.port,
    projects: o.projects,
    perProject: o.perProject,
    providers: o.providers,
    rate: o.rate,
    seconds: 3_600,
  });
  const sender: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(here, "heartbeat-flow.ts"), flow],
    { env: processEnv(), stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  sender.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((resolve) => sender.once("exit", () => resolve()));
  o.cleanups.push(() => {
    if (sender.exitCode === null) sender.kill("SIGKILL");
  });
  o.log(`heartbeats: ${o.rate}/s flowing to an SDK API process of their own (port ${sdk.port})`);
  // Let the flow settle in before anything is measured beside it.
  await new Promise((r) => setTimeout(r, 5_000));
  return {
    stop: async () => {
      sender.kill("SIGTERM");
      await exited;
      await stopSdk();
      const line = out.trim().split("\n").pop() ?? "{}";
      return JSON.parse(line) as Record<string, unknown>;
    },
  };
}
