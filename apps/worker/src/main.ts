import { drainBudgetMs, loadConfigOrExit } from "@breakwater/config";
import { startWorker } from "./start-worker";

const config = loadConfigOrExit();
// Active jobs get all but the last 3 s of SHUTDOWN_TIMEOUT_MS; those 3 s close the connections.
const timeoutMs = config.SHUTDOWN_TIMEOUT_MS;

const worker = await startWorker(config, { shutdownGraceMs: drainBudgetMs(timeoutMs) }).catch(
  (err: Error) => {
    process.stderr.write(`worker failed to start: ${err.message}\n`);
    process.exit(1);
  },
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  worker.deps.log.info({ signal }, "shutdown requested");
  // Whatever hangs (a stuck socket, a driver), the process still exits within SHUTDOWN_TIMEOUT_MS.
  setTimeout(() => {
    worker.deps.log.error("shutdown took too long; forcing exit");
    process.exit(1);
  }, timeoutMs).unref();
  worker.close().then(
    ({ clean }) => process.exit(clean ? 0 : 1),
    () => process.exit(1),
  );
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
