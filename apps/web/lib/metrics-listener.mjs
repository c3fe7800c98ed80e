// The dashboard's Prometheus metrics, on a listener of their own (WEB_METRICS_PORT, bound to
// METRICS_HOST, default loopback), never on the port browsers reach. Plain JS: server.mjs runs
// under node without a TypeScript loader. Counts every request the dashboard server answers by
// route family (trpc, auth, sdk_api, health, static, page) and status, plus Node's process metrics,
// and appends the SDK API metrics of the /api/v1 routes this process serves once they have started.
import { createServer } from "node:http";
import { Counter, collectDefaultMetrics, Registry } from "prom-client";

const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

/** The route family of a request path: a handful of label values, never the raw path. */
export function routeFamily(url) {
  const path = (url ?? "/").split("?")[0];
  if (path.startsWith("/api/trpc")) return "trpc";
  if (path.startsWith("/api/auth")) return "auth";
  if (path.startsWith("/api/v1")) return "sdk_api";
  if (path === "/health" || path.startsWith("/health/")) return "health";
  if (path.startsWith("/_next/")) return "static";
  return "page";
}

/** WEB_METRICS_PORT as a port number, undefined when unset; throws naming the variable when bad. */
export function webMetricsPort(env) {
  const raw = env.WEB_METRICS_PORT;
  if (raw === undefined || raw === "") return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535)
    throw new Error(`Invalid configuration: WEB_METRICS_PORT must be a port number (1-65535), got "${raw}"`);
  if (port === Number(env.PORT ?? "3000"))
    throw new Error(
      "Invalid configuration: WEB_METRICS_PORT must differ from PORT (metrics are not served to browsers)",
    );
  return port;
}

/**
 * Counts `server`'s requests and serves them on `port` (GET /metrics). Returns the metrics
 * listener (already listening) and the registry.
 */
export function startWebMetrics(server, { port, host = "127.0.0.1" }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "breakwater_web_requests_total",
    help: "Dashboard requests answered, by route family (trpc, auth, sdk_api, health, static, page) and HTTP status",
    labelNames: ["route", "status"],
    registers: [registry],
  });
  server.on("request", (req, res) => {
    const route = routeFamily(req.url);
    res.once("finish", () => requests.inc({ route, status: String(res.statusCode) }));
  });
  const listener = createServer((req, res) => {
    if ((req.url ?? "/").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: try /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    collect(registry).then(
      (text) =>
        res.writeHead(200, { "content-type": PROMETHEUS_TEXT }).end(req.method === "HEAD" ? undefined : text),
      (err) =>
        res.writeHead(500).end(`metrics collection failed: ${err instanceof Error ? err.message : err}\n`),
    );
  });
  listener.listen(port, host);
  return { listener, registry };
}

/** This registry, then the SDK API runtime's (created on the first /api/v1 request) when it is up. */
async function collect(registry) {
  const own = await registry.metrics();
  const wire = await globalThis.__breakwaterWire?.catch(() => undefined);
  return wire?.metrics ? `${own}\n${await wire.metrics.registry.metrics()}` : own;
}

/** server.mjs's one call: starts the listener when WEB_METRICS_PORT is set; a bad value stops the process naming it. */
export function startWebMetricsFromEnv(server, env = process.env) {
  let port;
  try {
    port = webMetricsPort(env);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  if (port === undefined) return undefined;
  const host = env.METRICS_HOST || "127.0.0.1";
  const started = startWebMetrics(server, { port, host });
  started.listener.once("listening", () =>
    process.stdout.write(`Dashboard metrics on http://${host}:${port}/metrics\n`),
  );
  return started;
}
