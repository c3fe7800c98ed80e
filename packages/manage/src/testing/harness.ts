import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Config, parseConfig, processEnv } from "@breakwater/config";
import {
  type Ctx,
  createApiKey,
  createManagementKey,
  createOrganization,
  createProject,
  type ManagementScope,
  newId,
  systemCtx,
} from "@breakwater/core";
import { createDb, type PrismaClient } from "@breakwater/db";
import { freePort } from "@breakwater/queue/testing";
import { pino } from "pino";
import type { z } from "zod";
import { fromNode, toNode } from "../adapters";
import { MANAGE_BASE } from "../pipeline";
import { createManageRuntime, type ManageRuntime } from "../runtime";

/** A running management API on a free port over the test databases (a node:http server, as server.mjs serves it). */
export interface ManageHarness {
  config: Config;
  db: PrismaClient;
  sys: Ctx;
  runtime: ManageRuntime;
  /** Base URL of the API, `http://127.0.0.1:PORT/api/manage/v1`. */
  api: string;
  close(): Promise<void>;
}

export async function startManageHarness(
  opts: { rateLimit?: { window: number; max: number }; env?: Record<string, string> } = {},
): Promise<ManageHarness> {
  const config = parseConfig({ ...processEnv(), ...opts.env });
  const db = createDb(config.DATABASE_URL);
  const log = pino({ level: "silent" });
  const sys = systemCtx({ db, config, log });
  const runtime = createManageRuntime(config, { logger: log, rateLimit: opts.rateLimit });
  const server: Server = createServer((msg, res) => {
    runtime.handle(fromNode(msg)).then((r) => toNode(res, r));
  });
  const port = await freePort(3500, 3599);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    config,
    db,
    sys,
    runtime,
    api: `http://127.0.0.1:${bound}${MANAGE_BASE}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await runtime.close();
      await db.$disconnect();
    },
  };
}

const uniq = () => Math.random().toString(36).slice(2, 10);

export interface ManageTenant {
  organizationId: string;
  projectId: string;
  /** Management keys of the organization. */
  read: string;
  write: string;
  writeKeyId: string;
  /** An SDK key of the project (must never pass here). */
  sdkKey: string;
}

/** A fresh organization with a project, read and write management keys and an SDK key. */
export async function createManageTenant(h: ManageHarness, plan = "team"): Promise<ManageTenant> {
  const org = await createOrganization(h.sys, { name: `Manage ${uniq()}`, planSlug: plan });
  const project = await createProject(h.sys, {
    organizationId: org.id,
    name: "service",
    limits: { monthly: 50 },
  });
  const inOrg: Ctx = { ...h.sys, organizationId: org.id };
  const read = await createManagementKey(inOrg, { name: "ci read", scope: "read" });
  const write = await createManagementKey(inOrg, { name: "ci write", scope: "write" });
  const sdk = await createApiKey(h.sys, { projectId: project.id });
  return {
    organizationId: org.id,
    projectId: project.id,
    read: read.managementKey,
    write: write.managementKey,
    writeKeyId: write.key.id,
    sdkKey: sdk.apiKey,
  };
}

/** An operator user and an operator-scoped key of theirs. */
export async function createOperatorKey(h: ManageHarness, scope: ManagementScope = "operator") {
  const userId = newId("user");
  await h.db.user.create({
    data: { id: userId, name: "Op", email: `op-${uniq()}@example.test`, isOperator: true },
  });
  const ctx: Ctx = { ...h.sys, actor: { type: "user", userId, isOperator: true } };
  const { managementKey, key } = await createManagementKey(ctx, { name: "billing", scope });
  return { userId, key: managementKey, keyId: key.id };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected field by field
  json: any;
}

/** One request to the API: JSON body (unless `raw`), the key as a bearer token. */
export async function call(
  h: ManageHarness,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(`${h.api}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Asserts `a` is a problem+json answer of `type` with `status`, and returns its body. */
export function problemOf(a: Answer, status: number, type: string) {
  if (a.status !== status || a.headers.get("content-type") !== "application/problem+json") {
    throw new Error(
      `expected ${status} ${type} as problem+json, got ${a.status} ${a.headers.get("content-type")}: ${a.text}`,
    );
  }
  if (
    a.json?.type !== `urn:breakwater:problem:${type}` ||
    a.json?.status !== status ||
    typeof a.json?.title !== "string"
  ) {
    throw new Error(`expected problem type ${type}, got ${a.text}`);
  }
  return a.json as {
    type: string;
    status: number;
    title: string;
    detail?: string;
    errors?: Record<string, string>[];
  };
}

/** Parses an answer's body with the documented schema (strict objects): a drifting handler fails here. */
export function shapeOf<S extends z.ZodType>(schema: S, a: Answer): z.output<S> {
  const r = schema.safeParse(a.json);
  if (!r.success)
    throw new Error(`answer does not match its documented schema: ${r.error.message}\n${a.text}`);
  return r.data;
}
