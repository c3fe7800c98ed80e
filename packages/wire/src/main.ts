import cluster from "node:cluster";
import { drainBudgetMs, loadConfigOrExit } from "@breakwater/config";
import { createLogger } from "@breakwater/core";
import { collectDefaultMetrics } from "prom-client";
import { CLUSTER_MESSAGES, runPrimary, sdkApiWorkerCount } from "./cluster";
import { createMetricsServer } from "./metrics-server";
import { createWireServer } from "./node-server";
import { createWireRuntime, type WireRuntime } from "./runtime";
import { exitOnce } from "./shutdown";

// The lean SDK API process: `npm run start -w @breakwater/wire` (SDK_PORT, default 3001). With
// SDK_API_WORKERS > 1 (default: one per core, at most 4) this process is the cluster's primary and
// each worker runs this same file; with 1 it serves by itself, as it always did.
const config = loadConfigOrExit();
const workers = sdkApiWorkerCount(config);

if (cluster.isPrimary && workers > 1) {
  runPrimary(config, workers, createLogger(config, "sdk-api"));
} else {
  await serve();
}

async function serve() {
  const worker = cluster.isWorker;
  let runtime: WireRuntime | undefined;
  const timeoutMs = config.SHUTDOWN_TIMEOUT_MS;
  /** Set once this worker has handed its final counts to the primary (they are summed there now). */
  let finalSent = false;
  // A stop asked for while the runtime boots: nothing to drain yet, so exit at once.
  let stop: (reason: string) => void = () => process.exit(0);
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // SIGHUP replaces the workers of a cluster (the primary's job); a lone process has none to replace.
  process.on("SIGHUP", () => {
    if (!worker) runtime?.log.info("SIGHUP ignored: with SDK_API_WORKERS=1 there are no workers to replace");
  });
  if (worker) {
    process.on("message", (m: { cmd?: string; id?: number }) => {
      if (m?.cmd === CLUSTER_MESSAGES.drain) stop("rolling restart or shutdown (primary)");
      else if (m?.cmd === CLUSTER_MESSAGES.metrics)
        void (runtime && !finalSent ? runtime.metrics.registry.getMetricsAsJSON() : Promise.resolve([])).then(
          (metrics) => process.send?.({ cmd: CLUSTER_MESSAGES.metrics, id: m.id, metrics }),
        );
    });
  }

  const rt = await createWireRuntime(config);
  runtime = rt;
  const { log } = rt;
  const server = createWireServer(rt.dispatch, { log, maxConnections: config.SDK_MAX_CONNECTIONS });

  // Prometheus metrics on a listener of their own, only when SDK_METRICS_PORT is set: SDK clients
  // reach SDK_PORT, and request counts and process details are no business of theirs. A cluster's
  // primary serves them, summed over its workers.
  let metricsServer: ReturnType<typeof createMetricsServer> | undefined;
  if (config.SDK_METRICS_PORT !== undefined) {
    collectDefaultMetrics({ register: rt.metrics.registry });
    if (!worker) {
      metricsServer = createMetricsServer(() => [rt.metrics.registry]);
      metricsServer.listen(config.SDK_METRICS_PORT, config.METRICS_HOST, () => {
        log.info({ port: config.SDK_METRICS_PORT, host: config.METRICS_HOST }, "SDK API metrics listening");
      });
    }
  }

  // Stop: drain the server (refuse new connections, finish what is in flight), then close the
  // runtime, which flushes key usage and the buffered breaker heartbeats; exit within the bound.
  stop = exitOnce({
    timeoutMs,
    log,
    run: async (reason) => {
      const drained = await server.drain({
        timeoutMs: drainBudgetMs(timeoutMs),
        // New connections are refused from here on.
        onStopAccepting: () => log.info({ reason, drainMs: drainBudgetMs(timeoutMs) }, "SDK API draining"),
      });
      metricsServer?.close();
      await rt.close();
      if (worker && process.connected) {
        // The counts of a worker that drained stay in the primary's sums.
        const metrics = await rt.metrics.registry.getMetricsAsJSON();
        finalSent = true;
        await new Promise<void>((r) =>
          process.send!({ cmd: CLUSTER_MESSAGES.finalMetrics, metrics }, () => r()),
        );
      }
      log.info({ ms: drained.ms, clean: drained.clean }, "SDK API stopped");
      return drained.clean;
    },
  });

  server.listen(config.SDK_PORT, config.HOST, () => {
    log.info({ port: config.SDK_PORT, host: config.HOST, pid: process.pid }, "SDK API listening");
  });
}
