import { loadConfigOrExit } from "@breakwater/config";
import { startWorker } from "./start-worker";

const config = loadConfigOrExit();
const GRACE_MS = 10_000;

const worker = await startWorker(config, { shutdownGraceMs: GRACE_MS }).catch((err: Error) => {
  process.stderr.write(`worker failed to start: ${err.message}\n`);
  process.exit(1);
});

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  worker.deps.log.info({ signal }, "shutdown requested");
  // Whatever hangs after the grace period (a stuck socket, a driver), the process still exits.
  setTimeout(() => {
    worker.deps.log.error("shutdown took too long; forcing exit");
    process.exit(1);
  }, GRACE_MS + 5_000).unref();
  worker.close().then(
    ({ clean }) => process.exit(clean ? 0 : 1),
    () => process.exit(1),
  );
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
