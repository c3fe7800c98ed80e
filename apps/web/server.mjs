// The dashboard's production server: Next.js's request handler behind a plain node:http server,
// so that every request carries the TCP peer address in x-breakwater-peer (overwriting any value a
// client sent under that name). Route handlers cannot see the socket otherwise, and the sign-in
// limiter needs the real peer to decide which X-Forwarded-For entries to trust (TRUST_PROXY).
// Flags as `next start`: --port/-p, --hostname/-H.
import { createServer } from "node:http";
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

const app = next({ dev: false, dir: import.meta.dirname, hostname: values.hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
// Route handlers trust x-breakwater-peer only when this server set it (see createAuthHandler).
globalThis.__breakwaterPeerHeader = true;

const server = createServer((req, res) => {
  req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  handle(req, res);
});
startWebMetricsFromEnv(server); // Prometheus /metrics on WEB_METRICS_PORT, when set
server.listen(port, values.hostname, () => {
  process.stdout.write(`Dashboard listening on http://${values.hostname ?? "0.0.0.0"}:${port}\n`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
