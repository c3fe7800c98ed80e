import { loadConfigOrExit } from "@breakwater/config";
import { collectDefaultMetrics } from "prom-client";
import { createMetricsServer } from "./metrics-server";
import { createWireServer } from "./node-server";
import { createWireRuntime } from "./runtime";

// The lean SDK API process: `npm run start -w @breakwater/wire` (SDK_PORT, default 3001).
const config = loadConfigOrExit();
const runtime = await createWireRuntime(config);
const server = createWireServer(runtime.dispatch, {
  log: runtime.log,
  maxConnections: config.SDK_MAX_CONNECTIONS,
});
server.listen(config.SDK_PORT, config.HOST, () => {
  runtime.log.info({ port: config.SDK_PORT, host: config.HOST }, "SDK API listening");
});

// Prometheus metrics on a listener of their own, only when SDK_METRICS_PORT is set: SDK clients
// reach SDK_PORT, and request counts and process details are no business of theirs.
let metricsServer: ReturnType<typeof createMetricsServer> | undefined;
if (config.SDK_METRICS_PORT !== undefined) {
  collectDefaultMetrics({ register: runtime.metrics.registry });
  metricsServer = createMetricsServer(() => [runtime.metrics.registry]);
  metricsServer.listen(config.SDK_METRICS_PORT, config.METRICS_HOST, () => {
    runtime.log.info(
      { port: config.SDK_METRICS_PORT, host: config.METRICS_HOST },
      "SDK API metrics listening",
    );
  });
}

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  runtime.log.info({ signal }, "SDK API stopping");
  server.close();
  server.closeIdleConnections();
  metricsServer?.close();
  const force = setTimeout(() => process.exit(0), 5_000);
  force.unref();
  runtime.close().finally(() => process.exit(0));
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
