import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";

/**
 * A listener of its own for Prometheus: `GET /metrics` answers the registries' text format, in
 * order (names must not repeat across them); anything else is 404/405. Kept off the port clients
 * reach, so scrape traffic and process details never share the public surface.
 */
export function createMetricsServer(registries: () => readonly Pick<Registry, "metrics">[]): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: try /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res
        .writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" })
        .end("Method not allowed\n");
      return;
    }
    Promise.all(registries().map((r) => r.metrics())).then(
      (texts) => {
        res.writeHead(200, { "content-type": PROMETHEUS_TEXT });
        res.end(req.method === "HEAD" ? undefined : texts.join("\n"));
      },
      (err: unknown) => {
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end(`metrics collection failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
}

/** Prometheus's text exposition format, version 0.0.4. */
export const PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
