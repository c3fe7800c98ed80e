import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Config, parseConfig, processEnv } from "@breakwater/config";
import {
  type Ctx,
  createApiKey,
  createOrganization,
  createProject,
  PriceCatalogue,
  SEED_PRICE_CARDS,
  systemCtx,
} from "@breakwater/core";
import { createDb, type PrismaClient } from "@breakwater/db";
import { pino } from "pino";
import { testHarnessEnv } from "../../../config/src/test-env";
import { createDashboardServer } from "../dashboard-port";
import { createWireServer } from "../node-server";
import { createWireRuntime, type WireRuntime } from "../runtime";

/**
 * A running SDK API server on a port of the wire range (3400–3499) over the test databases: the
 * lean server, or with WIRE_TEST_SERVER=dashboard the dashboard's single port
 * (createDashboardServer, what apps/web/server.mjs serves), with a stand-in for Next.js behind it
 * — the vitest project `int-dashboard` runs every suite that way, so both answer byte for byte alike.
 */
export interface Harness {
  config: Config;
  db: PrismaClient;
  sys: Ctx;
  runtime: WireRuntime;
  url: string;
  close(): Promise<void>;
}

export async function startHarness(overrides: Partial<Record<string, string>> = {}): Promise<Harness> {
  const config = parseConfig({ ...processEnv(), ...overrides });
  const db = createDb(config.DATABASE_URL);
  const log = pino({ level: "silent" });
  const sys = systemCtx({ db, config, log });
  const runtime = await createWireRuntime(config, {
    logger: log,
    catalogue: PriceCatalogue.fromCards(SEED_PRICE_CARDS),
    redisBootWaitMs: 1500,
  });
  const server =
    testHarnessEnv().WIRE_TEST_SERVER === "dashboard"
      ? createDashboardServer(nextStandIn, { log, runtime: async () => runtime })
      : createWireServer(runtime.dispatch, { log });
  await listenInRange(server);
  const { port } = server.address() as AddressInfo;
  return {
    config,
    db,
    sys,
    runtime,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await runtime.close();
      await db.$disconnect();
    },
  };
}

/** What the dashboard's Next.js app would answer: an HTML page no SDK request may ever get. */
function nextStandIn(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(404, { "content-type": "text/html; charset=utf-8" });
  res.end("<!DOCTYPE html><title>dashboard</title>");
}

async function listenInRange(server: ReturnType<typeof createWireServer>): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const port = 3400 + Math.floor(Math.random() * 100);
    const ok = await new Promise<boolean>((resolve) => {
      const onError = () => resolve(false);
      server.once("error", onError);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", onError);
        resolve(true);
      });
    });
    if (ok) return;
  }
  throw new Error("no free port in 3400-3499");
}

export interface Tenant {
  organizationId: string;
  projectId: string;
  key: string;
  readOnlyKey: string;
  keyId: string;
}

const uniq = () => Math.random().toString(36).slice(2, 10);

/** A fresh organization + project + full and read-only keys. */
export async function createTenant(
  h: Harness,
  opts: {
    plan?: string;
    mode?: "alert_only" | "hard_deny";
    limits?: { daily?: number; weekly?: number; monthly?: number };
  } = {},
): Promise<Tenant> {
  const org = await createOrganization(h.sys, { name: `Wire ${uniq()}`, planSlug: opts.plan ?? "team" });
  const project = await createProject(h.sys, {
    organizationId: org.id,
    name: "sdk",
    mode: opts.mode ?? "alert_only",
    limits: opts.limits ?? { monthly: 100 },
  });
  const full = await createApiKey(h.sys, { projectId: project.id });
  const ro = await createApiKey(h.sys, { projectId: project.id, readOnly: true });
  return {
    organizationId: org.id,
    projectId: project.id,
    key: full.apiKey,
    readOnlyKey: ro.apiKey,
    keyId: full.key.id,
  };
}

export interface Exchange {
  status: number;
  text: string;
  headers: Headers;
  json(): unknown;
}

/** POSTs `body` (JSON-encoded unless `raw`) exactly as the SDK does. */
export async function post(
  h: Harness,
  path: string,
  body: unknown,
  key: string | null,
  opts: { raw?: boolean; headers?: Record<string, string> } = {},
): Promise<Exchange> {
  const res = await fetch(`${h.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(opts.headers ?? {}),
    },
    body: opts.raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) };
}

export async function get(h: Harness, path: string): Promise<Exchange> {
  const res = await fetch(`${h.url}${path}`);
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) };
}

export const CHECK = "/api/v1/budgets/check";
export const CONFIRM = "/api/v1/budgets/confirm";
export const INGEST = "/api/v1/metadata/ingest";
export const UNTRACKED = "/api/v1/untracked-surfaces";
export const breakerPath = (projectId: string) => `/api/v1/projects/${projectId}/providers/breaker-reports`;

export const checkBody = (extra: Record<string, unknown> = {}) => ({
  estimated_input_tokens: 1000,
  model: "gpt-5.5",
  provider: "openai",
  failover_directive_version: "1",
  price_hints_version: "1",
  run_directive_version: "1",
  ...extra,
});

export function event(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "gpt-5.5",
    provider: "openai",
    modality: "text",
    input_tokens: 1000,
    output_tokens: 500,
    token_details: { input_tokens: 1000, output_tokens: 500 },
    latency_ms: 123.4,
    status: "success",
    is_model_fallback: false,
    is_provider_fallback: false,
    attempt_index: 0,
    call_id: crypto.randomUUID(),
    sdk_instance_id: `sdk-${uniq()}`,
    timestamp: new Date().toISOString().replace("Z", "123Z"),
    ...extra,
  };
}

/** A confirm of `reservationId` for 1000 in / 500 out tokens of gpt-5.5, with a fresh call id. */
export function confirmBody(reservationId: string): Record<string, unknown> {
  return {
    reservation_id: reservationId,
    model: "gpt-5.5",
    provider: "openai",
    modality: "text",
    is_provider_fallback: false,
    call_id: crypto.randomUUID(),
    token_details: { input_tokens: 1000, output_tokens: 500 },
  };
}

/** A breaker report of OpenAI from instance "inst-1". */
export const breakerReport = (at: string, state: string) => ({
  provider: "openai",
  state,
  failure_count: 3,
  success_count: 0,
  reported_at: at,
  sdk_instance_id: "inst-1",
});

/** What a tenant has stored, as one comparable string (a refused request must leave it unchanged). */
export async function storedCounts(h: Harness, t: Tenant): Promise<string> {
  const [events, runs, surfaces, snapshots, transitions, tags] = await Promise.all([
    h.db.metadataEvent.count({ where: { projectId: t.projectId } }),
    h.db.agentRun.count({ where: { projectId: t.projectId } }),
    h.db.untrackedSurfaceReport.count({ where: { projectId: t.projectId } }),
    h.db.breakerSnapshot.count({ where: { projectId: t.projectId } }),
    h.db.breakerTransition.count({ where: { projectId: t.projectId } }),
    h.db.tagValue.count({ where: { organizationId: t.organizationId } }),
  ]);
  return JSON.stringify({ events, runs, surfaces, snapshots, transitions, tags });
}

export function surfaceReport(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "openai",
    client_shape: "openai_sdk",
    mode: "async",
    surface: `responses.retrieve_${uniq()}`,
    rule_kind: "unmetered_spend",
    capability_scope: null,
    posture: "warn",
    occurrences: 3,
    first_seen_at: "2026-08-31T01:00:00Z",
    last_seen_at: "2026-08-31T01:02:03.456Z",
    sdk_instance_id: `sdk-${uniq()}`,
    report_id: crypto.randomUUID(),
    ...extra,
  };
}

/** Polls `probe` until it returns true or `ms` passes; resolves with the elapsed milliseconds. */
export async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await probe()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`condition not met within ${ms} ms`);
}

export const INVALID_KEY = '{"detail":"Invalid API key"}';
export const READ_ONLY = '{"detail":{"code":"read_only_key","message":"read-only project key cannot write"}}';
/** The keys of a JSON object in order. */
export const keys = (x: unknown) => Object.keys(x as object);
