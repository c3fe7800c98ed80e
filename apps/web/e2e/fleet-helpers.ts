import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page } from "@playwright/test";

/** Creates a project and its first key through the UI; returns the project id and the key shown once. */
export async function createProjectWithKey(page: Page, name: string): Promise<{ id: string; key: string }> {
  await page.goto("/projects/new");
  await page.getByLabel("Project name").fill(name);
  await page.getByLabel("Daily").fill("100");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/proj_[0-9a-f]{24}$/);
  const id = new URL(page.url()).pathname.split("/").pop() as string;
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill("fleet");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").locator("code").textContent()) ?? "";
  expect(key).toMatch(/^sk_proj_[0-9a-f]{64}$/);
  return { id, key };
}

/** What an SDK sends: POST /api/v1/projects/{id}/providers/breaker-reports on the dashboard's port. */
export async function reportBreaker(
  request: APIRequestContext,
  project: { id: string; key: string },
  r: {
    provider: string;
    instance: string;
    state: "closed" | "open" | "half_open";
    at?: Date;
    failures?: number;
  },
) {
  const res = await request.post(`/api/v1/projects/${project.id}/providers/breaker-reports`, {
    headers: { authorization: `Bearer ${project.key}` },
    data: {
      provider: r.provider,
      state: r.state,
      failure_count: r.failures ?? (r.state === "open" ? 3 : 0),
      success_count: r.state === "closed" ? 2 : 0,
      reported_at: (r.at ?? new Date()).toISOString(),
      sdk_instance_id: r.instance,
    },
  });
  expect(res.status()).toBe(202);
}

/** A call requested of `requested` that `served` answered, as the SDK's metadata event. */
export function ingestFailover(
  request: APIRequestContext,
  project: { id: string; key: string },
  e: {
    instance: string;
    requested: [string, string];
    served: [string, string];
    at?: Date;
    latencyMs?: number;
  },
) {
  return ingestFailovers(request, project, [e]);
}

/** Several such calls in one ingest request (the SDK batches its events). */
export async function ingestFailovers(
  request: APIRequestContext,
  project: { id: string; key: string },
  events: {
    instance: string;
    requested: [string, string];
    served: [string, string];
    at?: Date;
    latencyMs?: number;
  }[],
) {
  const res = await request.post("/api/v1/metadata/ingest", {
    headers: { authorization: `Bearer ${project.key}` },
    data: events.map((e) => {
      const at = e.at ?? new Date();
      return {
        model: e.served[1],
        provider: e.served[0],
        modality: "text",
        input_tokens: 120,
        output_tokens: 30,
        latency_ms: e.latencyMs ?? 850,
        status: "success",
        is_model_fallback: false,
        is_provider_fallback: true,
        requested_provider: e.requested[0],
        requested_model: e.requested[1],
        failover_reason: "circuit_open",
        attempt_index: 0,
        call_id: randomUUID(),
        sdk_instance_id: e.instance,
        timestamp: at.toISOString().replace("Z", "000Z"),
      };
    }),
  });
  expect(res.status()).toBe(202);
  const body = (await res.json()) as { ingested: number };
  expect(body.ingested).toBe(events.length);
}

/** Desktop and phone (390 px) screenshots under e2e/screenshots/ (kept out of git). */
export async function screenshots(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}-desktop.png`, fullPage: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `e2e/screenshots/${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}
