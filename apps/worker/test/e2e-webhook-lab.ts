/**
 * The webhook lab for the dashboard's Playwright spec (apps/web/e2e/webhooks.spec.ts), run as a
 * child process with tsx. It starts:
 *
 * - the real worker (startWorker) against the TEST database and Redis, so messages recorded by the
 *   dashboard and the wire API are delivered exactly as in production;
 * - a receiver on 127.0.0.1 that verifies every request with svix's `Webhook.verify` against the
 *   secrets it was given (400 when none verifies), and can be told to answer 500 to the next N;
 * - a small control API the spec drives: POST /secrets {secrets}, POST /fail-next {count},
 *   GET /received, POST /plan {organizationName, plan}, POST /member {email, organizationName, role}.
 *
 * It prints one JSON line `{"ready":true,"receiverUrl":…,"controlUrl":…}` on stdout when ready and
 * stops cleanly on SIGTERM/SIGINT.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseConfig, processEnv } from "@breakwater/config";
import { Webhook } from "svix";
import { testHarnessEnv } from "../../../packages/config/src/test-env";
import { startWorker } from "../src/start-worker";

/** The e2e web server's key for sealing webhook secrets (apps/web/playwright.config.ts): the worker opens what the dashboard sealed. */
const TEST_SECRETS_KEY = "e2e0000000000000000000000000000000000000000000000000000000000001";

interface Received {
  webhookId: string;
  type: string | null;
  verified: boolean;
  /** Which of the secrets given (by index) verified it; null when none did. */
  secretIndex: number | null;
  signatures: number;
  answered: number;
  at: string;
}

const harness = testHarnessEnv();
const config = parseConfig({
  ...processEnv(),
  DATABASE_URL: harness.E2E_DATABASE_URL,
  REDIS_URL: harness.E2E_REDIS_URL,
  PUBLIC_URL: `http://127.0.0.1:${harness.E2E_PORT}`,
  WORKER_HEALTH_PORT: "0",
  LOG_LEVEL: "warn",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  SECRETS_ENCRYPTION_KEY: TEST_SECRETS_KEY,
});

let secrets: string[] = [];
let failNext = 0;
const received: Received[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown) {
  // No keep-alive: the spec's request context would otherwise reuse a socket that this server
  // is closing after 5 idle seconds, and the next control call fails with ECONNRESET.
  res.writeHead(status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify(body));
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

const receiver = createServer(async (req, res) => {
  const body = await readBody(req);
  const headers = {
    "webhook-id": String(req.headers["webhook-id"] ?? ""),
    "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
    "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
  };
  let secretIndex: number | null = null;
  for (const [i, s] of secrets.entries()) {
    try {
      new Webhook(s).verify(body, headers);
      secretIndex = i;
      break;
    } catch {
      // Try the next secret.
    }
  }
  const verified = secretIndex !== null;
  const answered = !verified ? 400 : failNext > 0 ? 500 : 200;
  if (verified && failNext > 0) failNext -= 1;
  let type: string | null = null;
  try {
    type = (JSON.parse(body) as { type?: string }).type ?? null;
  } catch {
    // Not JSON: recorded with no type.
  }
  received.push({
    webhookId: headers["webhook-id"],
    type,
    verified,
    secretIndex,
    signatures: headers["webhook-signature"].split(" ").filter(Boolean).length,
    answered,
    at: new Date().toISOString(),
  });
  send(
    res,
    answered,
    answered === 200 ? { ok: true } : { error: verified ? "told to fail" : "bad signature" },
  );
});

const worker = await startWorker(config, { drainDelaySeconds: 1, shutdownGraceMs: 2_000 });
const db = worker.deps.db;

const control = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://x");
    const body =
      req.method === "POST" ? (JSON.parse((await readBody(req)) || "{}") as Record<string, unknown>) : {};
    if (req.method === "GET" && url.pathname === "/received") return send(res, 200, received);
    if (req.method === "POST" && url.pathname === "/secrets") {
      secrets = (body.secrets as string[]) ?? [];
      return send(res, 200, { secrets: secrets.length });
    }
    if (req.method === "POST" && url.pathname === "/fail-next") {
      failNext = Number(body.count ?? 1);
      return send(res, 200, { failNext });
    }
    if (req.method === "POST" && url.pathname === "/plan") {
      const org = await db.organization.findFirstOrThrow({ where: { name: String(body.organizationName) } });
      const plan = await db.plan.findUniqueOrThrow({ where: { slug: String(body.plan) } });
      await db.subscription.update({ where: { organizationId: org.id }, data: { planId: plan.id } });
      return send(res, 200, { organizationId: org.id, plan: plan.slug });
    }
    if (req.method === "POST" && url.pathname === "/member") {
      const org = await db.organization.findFirstOrThrow({ where: { name: String(body.organizationName) } });
      const user = await db.user.findUniqueOrThrow({ where: { email: String(body.email) } });
      await db.member.create({
        data: { id: randomUUID(), organizationId: org.id, userId: user.id, role: String(body.role) },
      });
      return send(res, 200, { organizationId: org.id });
    }
    return send(res, 404, { error: "no such control" });
  } catch (err) {
    return send(res, 500, { error: (err as Error).message });
  }
});

const [receiverUrl, controlUrl] = await Promise.all([listen(receiver), listen(control)]);
process.stdout.write(`${JSON.stringify({ ready: true, receiverUrl, controlUrl })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  receiver.closeAllConnections();
  control.closeAllConnections();
  await Promise.all([
    new Promise((r) => receiver.close(r)),
    new Promise((r) => control.close(r)),
    worker.close(),
  ]);
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
