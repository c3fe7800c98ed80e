/**
 * Report → page-update latency with a browser open: the production dashboard (`next start`) on
 * the benchmark's database and Redis, Chromium on /fleet signed in as a member of the benchmark
 * organization, then breaker reports posted to the wire API and timed until the grid cell shows them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { processEnv } from "@breakwater/config";
import type { Ctx } from "@breakwater/core";
import { newId } from "@breakwater/core";
import { freePort } from "@breakwater/queue/testing";
import { chromium } from "playwright-core";
import { WireClient } from "../../simulator/wire-client";
import { repoRoot } from "../../src/paths";

export async function measureLiveUpdates(opts: {
  ctx: Ctx;
  organizationId: string;
  project: { id: string; apiKey: string };
  provider: string;
  sdkBaseUrl: string;
  env: Record<string, string>;
  updates: number;
  cleanups: (() => Promise<unknown> | unknown)[];
}): Promise<number[]> {
  const port = await freePort(3700, 3799);
  const baseURL = `http://127.0.0.1:${port}`;
  const web: ChildProcess = spawn(
    "npx",
    ["--no-install", "next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: path.join(repoRoot, "apps/web"),
      env: {
        ...processEnv(),
        ...opts.env,
        AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
        PUBLIC_URL: baseURL,
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    },
  );
  opts.cleanups.push(() => {
    if (web.pid) process.kill(-web.pid, "SIGTERM");
  });
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${baseURL}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || web.exitCode !== null)
      throw new Error(
        "the dashboard did not start (is the production build there? npx turbo run build --filter=@breakwater/web)",
      );
    await new Promise((r) => setTimeout(r, 250));
  }

  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-quic"],
  });
  opts.cleanups.push(() => browser.close());
  const context = await browser.newContext({ baseURL });
  const email = `bench-${randomUUID().slice(0, 8)}@bench.example.test`;
  const headers = { origin: baseURL };
  const signUp = await context.request.post("/api/auth/sign-up/email", {
    data: { name: "Bench Viewer", email, password: "correct horse battery staple" },
    headers,
  });
  if (!signUp.ok()) throw new Error(`sign-up failed: ${signUp.status()} ${await signUp.text()}`);
  const user = await opts.ctx.db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  await opts.ctx.db.member.create({
    data: { id: newId("mem"), organizationId: opts.organizationId, userId: user.id, role: "viewer" },
  });
  // better-auth's organization endpoints are closed over HTTP; the dashboard's own procedure sets it.
  const active = await context.request.post("/api/trpc/organization.setActive", {
    data: { json: { organizationId: opts.organizationId } },
    headers,
  });
  if (!active.ok()) throw new Error(`set-active failed: ${active.status()} ${await active.text()}`);

  const page = await context.newPage();
  await page.goto("/fleet");
  const cell = page.locator(
    `[data-testid="fleet-cell"][data-project="${opts.project.id}"][data-provider="${opts.provider}"]`,
  );
  await cell.waitFor({ timeout: 30_000 });
  // The stream is up once the page says so; reports before that would be fetched, not pushed.
  await page.locator('[data-live="streaming"]').waitFor({ timeout: 30_000 });

  const client = new WireClient(opts.sdkBaseUrl, opts.project.apiKey);
  const instance = `bench-live-${randomUUID().slice(0, 8)}`;
  const latencies: number[] = [];
  let at = Date.now();
  // The instance moves the cell's Down count by one each way (whatever the rest of the cell is doing).
  const downBefore = Number(await cell.getAttribute("data-down"));
  for (let i = 0; i < opts.updates; i++) {
    const state = i % 2 === 0 ? "open" : "closed";
    const want = state === "open" ? downBefore + 1 : downBefore;
    at = Math.max(Date.now(), at + 1);
    const t0 = performance.now();
    await client.breakerReport(opts.project.id, {
      provider: opts.provider,
      state,
      failure_count: state === "open" ? 3 : 0,
      success_count: 0,
      reported_at: new Date(at).toISOString(),
      sdk_instance_id: instance,
    });
    await page
      .locator(
        `[data-testid="fleet-cell"][data-project="${opts.project.id}"][data-provider="${opts.provider}"][data-down="${want}"]`,
      )
      .waitFor({ timeout: 10_000 });
    latencies.push(performance.now() - t0);
  }
  return latencies;
}
