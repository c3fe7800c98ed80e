import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JS module (server.mjs runs without a TypeScript loader)
import { routeFamily, startWebMetrics, webMetricsPort } from "./metrics-listener.mjs";

const app = createServer((req, res) => res.writeHead(req.url === "/missing" ? 404 : 200).end("ok"));
const closers: (() => void)[] = [() => app.close()];
afterAll(() => {
  for (const c of closers) c();
});

describe("dashboard metrics listener", () => {
  it("counts the app's requests by route family and status on a separate /metrics port", async () => {
    const { listener } = startWebMetrics(app, { port: 0, host: "127.0.0.1" });
    closers.push(() => listener.close());
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => (listener.listening ? r() : listener.once("listening", r)));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const metricsUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/metrics`;
    for (const path of ["/api/trpc/projects.list", "/api/trpc/x", "/api/auth/sign-in", "/missing"])
      await (await fetch(appUrl + path)).text();
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    expect(text).toContain('breakwater_web_requests_total{route="trpc",status="200"} 2');
    expect(text).toContain('breakwater_web_requests_total{route="auth",status="200"} 1');
    expect(text).toContain('breakwater_web_requests_total{route="page",status="404"} 1');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect((await fetch(metricsUrl.replace("/metrics", "/"))).status).toBe(404);
  });

  it("maps paths to a few route families", () => {
    expect(routeFamily("/api/v1/budgets/check?x=1")).toBe("sdk_api");
    expect(routeFamily("/health/ready")).toBe("health");
    expect(routeFamily("/_next/static/chunk.js")).toBe("static");
    expect(routeFamily("/projects/abc")).toBe("page");
  });

  it("reads WEB_METRICS_PORT: off when unset, an error naming the variable when bad", () => {
    expect(webMetricsPort({})).toBeUndefined();
    expect(webMetricsPort({ WEB_METRICS_PORT: "9465" })).toBe(9465);
    for (const bad of ["0", "70000", "abc", "9465.5"])
      expect(() => webMetricsPort({ WEB_METRICS_PORT: bad })).toThrow(
        /^Invalid configuration: WEB_METRICS_PORT /,
      );
    expect(() => webMetricsPort({ WEB_METRICS_PORT: "3000", PORT: "3000" })).toThrow(/must differ from PORT/);
  });
});
