import { loadConfigOrExit } from "@breakwater/config";
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

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  runtime.log.info({ signal }, "SDK API stopping");
  server.close();
  server.closeIdleConnections();
  const force = setTimeout(() => process.exit(0), 5_000);
  force.unref();
  runtime.close().finally(() => process.exit(0));
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
