import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "./paths";

const read = (path: string) => readFileSync(join(repoRoot, path), "utf8");
const yaml = (path: string) => parse(read(path)) as Record<string, unknown>;

interface Service {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
}

describe("observability profile", () => {
  const compose = yaml("docker-compose.yml") as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };

  it("compose runs Prometheus and Grafana only under the observability profile, mounting files that exist", () => {
    for (const name of ["prometheus", "grafana"]) {
      const s = compose.services[name]!;
      expect(s.profiles).toEqual(["observability"]);
      expect(s.image).toMatch(name === "prometheus" ? /^prom\/prometheus:/ : /^grafana\/grafana:/);
      for (const v of s.volumes ?? []) {
        const [source] = v.split(":");
        if (source!.startsWith("./")) expect(existsSync(join(repoRoot, source!)), v).toBe(true);
        else expect(compose.volumes, v).toHaveProperty(source!);
      }
    }
    // The default `docker compose up` is unchanged: every other service has no profile.
    for (const [name, s] of Object.entries(compose.services)) {
      if (name !== "prometheus" && name !== "grafana") expect(s.profiles, name).toBeUndefined();
    }
  });

  it("Prometheus scrapes every Breakwater process on the port its compose service serves metrics on", () => {
    const prom = yaml("deploy/prometheus/prometheus.yml") as {
      global: { scrape_interval: string };
      scrape_configs: { job_name: string; metrics_path?: string; static_configs: { targets: string[] }[] }[];
    };
    expect(prom.global.scrape_interval).toMatch(/^\d+[smh]$/);
    const targets = new Map(
      prom.scrape_configs.map((j) => [j.job_name, j.static_configs.flatMap((c) => c.targets)] as const),
    );
    expect(new Set(prom.scrape_configs.map((j) => j.job_name)).size).toBe(prom.scrape_configs.length);
    for (const j of prom.scrape_configs) expect(j.metrics_path ?? "/metrics").toBe("/metrics");
    const env = (svc: string) => compose.services[svc]!.environment ?? {};
    expect(targets.get("breakwater-sdk-api")).toEqual([`sdk-api:${env("sdk-api").SDK_METRICS_PORT}`]);
    expect(targets.get("breakwater-web")).toEqual([`web:${env("web").WEB_METRICS_PORT}`]);
    expect(targets.get("breakwater-worker")).toEqual([`worker:${env("worker").WORKER_HEALTH_PORT}`]);
    // Reachable from the Prometheus container, never on the port clients use.
    expect(env("sdk-api").METRICS_HOST).toBe("0.0.0.0");
    expect(env("sdk-api").SDK_METRICS_PORT).not.toBe(env("sdk-api").SDK_PORT);
  });

  it("Grafana is provisioned with the Prometheus datasource and the dashboard folder", () => {
    const ds = yaml("deploy/grafana/provisioning/datasources/prometheus.yml") as {
      datasources: { uid: string; type: string; url: string }[];
    };
    expect(ds.datasources).toEqual([
      expect.objectContaining({
        uid: "breakwater-prometheus",
        type: "prometheus",
        url: "http://prometheus:9090",
      }),
    ]);
    const dashboards = yaml("deploy/grafana/provisioning/dashboards/breakwater.yml") as {
      providers: { type: string; options: { path: string } }[];
    };
    expect(dashboards.providers[0]).toMatchObject({
      type: "file",
      options: { path: "/var/lib/grafana/dashboards" },
    });
    expect(compose.services.grafana!.volumes).toContain(
      "./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro",
    );
  });

  it("the dashboard JSON parses and charts every operator metric through the provisioned datasource", () => {
    const dash = JSON.parse(read("deploy/grafana/dashboards/breakwater.json")) as {
      uid: string;
      panels: { id: number; title: string; datasource: { uid: string }; targets: { expr: string }[] }[];
    };
    expect(dash.uid).toBe("breakwater-overview");
    expect(new Set(dash.panels.map((p) => p.id)).size).toBe(dash.panels.length);
    const exprs = dash.panels.flatMap((p) => p.targets.map((t) => t.expr)).join("\n");
    for (const metric of [
      "breakwater_sdk_requests_total",
      "breakwater_sdk_request_duration_seconds_bucket",
      "breakwater_sdk_backend_errors_total",
      "breakwater_worker_backend_errors_total",
      "breakwater_webhook_deliveries_total",
      "breakwater_queue_jobs",
      "breakwater_usage_rollup_lag_seconds",
      "breakwater_web_requests_total",
    ])
      expect(exprs).toContain(metric);
    for (const q of ["0.5", "0.95", "0.99"]) expect(exprs).toContain(`histogram_quantile(${q},`);
    for (const p of dash.panels) expect(p.datasource.uid, p.title).toBe("breakwater-prometheus");
  });
});
