// The dashboard's production server: Next.js's request handler behind a plain node:http server,
// so that every request carries the TCP peer address in x-breakwater-peer (overwriting any value a
// client sent under that name). Route handlers cannot see the socket otherwise, and the sign-in
// limiter needs the real peer to decide which X-Forwarded-For entries to trust (TRUST_PROXY).
// The SDK API's paths (/api/v1/*, /health, /health/ready) skip Next.js altogether: they are answered
// by the lean SDK API server's own dispatch, bounds and keep-alive (@breakwater/wire's
// createDashboardServer), so a single-port deployment serves the SDK as fast as the lean server.
// Flags as `next start`: --port/-p, --hostname/-H.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import next from "next";
import { startWebMetricsFromEnv } from "./lib/metrics-listener.mjs";

const PEER_ADDRESS_HEADER = "x-breakwater-peer";

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string", short: "p", default: "3000" },
      hostname: { type: "string", short: "H" },
    },
  }));
} catch (err) {
  process.stderr.write(`server.mjs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`server.mjs: --port must be a port number, got "${values.port}"\n`);
  process.exit(2);
}

/**
 * @breakwater/wire's dashboard port: its production bundle (`npm run build -w @breakwater/wire`,
 * which turbo runs before the dashboard's build), else its TypeScript source through tsx, as the
 * lean server's launcher does. Imported at run time, so `next build` never sees it.
 */
async function loadWirePort() {
  const wireRoot = path.dirname(path.dirname(fileURLToPath(import.meta.resolve("@breakwater/wire"))));
  const built = path.join(wireRoot, "dist", "dashboard-port.mjs");
  if (existsSync(built)) return import(pathToFileURL(built).href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(pathToFileURL(path.join(wireRoot, "src", "dashboard-port.ts")).href, import.meta.url);
}

const app = next({ dev: false, dir: import.meta.dirname, hostname: values.hostname, port });
const handle = app.getRequestHandler();
const [wire] = await Promise.all([loadWirePort(), app.prepare()]);
// Route handlers trust x-breakwater-peer only when this server set it (see createAuthHandler).
globalThis.__breakwaterPeerHeader = true;

// Keep-alive (65 s, longer than common load-balancer idle timeouts), the header/request deadlines
// and the connection cap are the lean SDK API server's, for the dashboard's requests too.
const server = wire.createDashboardServer((req, res) => {
  req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  handle(req, res);
});
startWebMetricsFromEnv(server); // Prometheus /metrics on WEB_METRICS_PORT, when set
server.listen(port, values.hostname, () => {
  process.stdout.write(`Dashboard listening on http://${values.hostname ?? "0.0.0.0"}:${port}\n`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => wire.closeSharedWireRuntime().finally(() => process.exit(0)));
    server.closeAllConnections();
  });
}
