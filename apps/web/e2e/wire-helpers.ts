import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect } from "@playwright/test";

/**
 * What a current SDK sends as a budget check (all three opt-ins): on the dashboard's own /api/v1,
 * or on the SDK API at `sdkUrl` (a lean SDK API server, e2e/sdk-api.ts).
 */
export async function budgetCheck(
  request: APIRequestContext,
  apiKey: string,
  opts: { agentRunId?: string; inputTokens?: number; model?: string; sdkUrl?: string } = {},
): Promise<Record<string, unknown>> {
  const res = await request.post(`${opts.sdkUrl ?? ""}/api/v1/budgets/check`, {
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    data: {
      estimated_input_tokens: opts.inputTokens ?? 10,
      model: opts.model ?? "gpt-4o",
      provider: "openai",
      ...(opts.agentRunId ? { agent_run_id: opts.agentRunId } : {}),
      failover_directive_version: "1",
      run_directive_version: "1",
      price_hints_version: "1",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Settles a reservation with the call's actual usage (gpt-4o: $2.50 per million input tokens). */
export async function budgetConfirm(
  request: APIRequestContext,
  apiKey: string,
  reservationId: string,
  inputTokens: number,
): Promise<void> {
  const res = await request.post("/api/v1/budgets/confirm", {
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    data: {
      reservation_id: reservationId,
      model: "gpt-4o",
      provider: "openai",
      call_id: randomUUID(),
      token_details: { input_tokens: inputTokens, output_tokens: 0 },
    },
  });
  expect(res.status(), await res.text()).toBe(204);
}

/** One metadata event of an agent run (optionally a child of another), as the SDK ingests it. */
export async function ingestRunCall(
  request: APIRequestContext,
  apiKey: string,
  run: { id: string; parent?: string; name?: string; velocityFlags?: string[] },
): Promise<void> {
  const res = await request.post("/api/v1/metadata/ingest", {
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    data: [
      {
        model: "gpt-4o",
        provider: "openai",
        input_tokens: 1200,
        output_tokens: 300,
        latency_ms: 640,
        status: "success",
        is_model_fallback: false,
        call_id: randomUUID(),
        sdk_instance_id: "e2e-runs-1",
        timestamp: new Date().toISOString().replace("Z", "000Z"),
        agent_run_id: run.id,
        ...(run.parent ? { parent_agent_run_id: run.parent } : {}),
        ...(run.name ? { agent_run_name: run.name } : {}),
        ...(run.velocityFlags ? { velocity_flags: run.velocityFlags } : {}),
      },
    ],
  });
  expect(res.status(), await res.text()).toBe(202);
  expect(((await res.json()) as { ingested: number }).ingested).toBe(1);
}

/** Creates a key in the project page's key panel and returns the key shown once. */
export async function createKeyOnPage(page: import("@playwright/test").Page, name = "sdk"): Promise<string> {
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const key = ((await page.getByTestId("new-key").locator("code").textContent()) ?? "").trim();
  expect(key).toMatch(/^sk_proj_[0-9a-f]{64}$/);
  return key;
}

/** True when the page has no horizontal scroll (tables scroll inside their own container). */
export async function fitsWidth(page: import("@playwright/test").Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
