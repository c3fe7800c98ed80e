/**
 * The dashboard's port as apps/web/server.mjs runs it — createDashboardServer, the shared SDK
 * runtime, and the same stop (stopDashboardPort within SHUTDOWN_TIMEOUT_MS) — with a stand-in for
 * Next.js, so the drain suites can signal a real process without a Next.js build. Argument: the
 * port. The stand-in answers `/slow-page` after 800 ms (a page in flight when the signal comes).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createDashboardServer, exitOnce, shutdownTimeoutMs, stopDashboardPort } from "../dashboard-port";

const port = Number(process.argv[2]);
const timeoutMs = shutdownTimeoutMs();
let appStopped = false;

function nextStandIn(req: IncomingMessage, res: ServerResponse): void {
  const answer = () => {
    res.writeHead(appStopped ? 502 : 200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!DOCTYPE html><title>dashboard</title>");
  };
  if (req.url === "/slow-page") setTimeout(answer, 800);
  else answer();
}

const server = createDashboardServer(nextStandIn);
server.listen(port, "127.0.0.1", () => process.stdout.write(`listening ${process.pid}\n`));
const log = {
  info: (o: object, m: string) => process.stdout.write(`${m} ${JSON.stringify(o)}\n`),
  error: (o: object, m: string) => process.stderr.write(`${m} ${JSON.stringify(o)}\n`),
};
const stop = exitOnce({
  timeoutMs,
  log,
  run: async (reason) => {
    const clean = await stopDashboardPort(server, {
      timeoutMs,
      stopApp: async () => {
        appStopped = true;
      },
      onStopAccepting: () => log.info({ reason }, "dashboard draining"),
    });
    log.info({ clean }, "dashboard stopped");
    return clean;
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal));
