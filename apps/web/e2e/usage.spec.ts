import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createProjectWithKey } from "./fleet-helpers";
import { createOrganization, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";

/**
 * The usage pages against the production build: metadata ingested through the wire API, rolled
 * up by the worker, read back on /usage and on the project's usage page until every figure
 * matches what was sent — then a viewer of the organization sees the same.
 */

const DESKTOP = { width: 1280, height: 900 } as const;
const webDir = path.resolve(__dirname, "..");

/** Adds a signed-up user to an organization by name with a role (e2e/add-member.ts). */
function addMember(email: string, organizationName: string, role: "viewer") {
  const res = spawnSync(
    path.join(webDir, "..", "..", "node_modules", ".bin", "tsx"),
    [path.join(webDir, "e2e", "add-member.ts"), email, organizationName, role],
    { cwd: webDir, env: { ...process.env, LOG_LEVEL: "warn" }, encoding: "utf8" },
  );
  expect(res.status, res.stderr).toBe(0);
}

type Event = Record<string, unknown>;
let sent = 0;

/** One SDK metadata event as the wire protocol names its fields (µs timestamps, UTC). */
function event(e: {
  provider: string;
  model: string;
  input: number;
  output: number;
  status?: "success" | "error" | "budget_denied";
  run: string;
  runName?: string;
  tags?: Record<string, string>;
  latencyMs: number;
  extra?: Event;
}): Event {
  return {
    model: e.model,
    provider: e.provider,
    modality: "text",
    input_tokens: e.input,
    output_tokens: e.output,
    latency_ms: e.latencyMs,
    status: e.status ?? "success",
    is_model_fallback: false,
    attempt_index: 0,
    call_id: randomUUID(),
    sdk_instance_id: "web-1",
    // Distinct instants: (timestamp, sdk_instance_id) is the wire protocol's legacy dedup key.
    timestamp: new Date(Date.now() - 5_000 + sent++).toISOString().replace("Z", "000Z"),
    agent_run_id: e.run,
    ...(e.runName ? { agent_run_name: e.runName } : {}),
    ...(e.tags ? { tags: e.tags } : {}),
    ...e.extra,
  };
}

async function ingest(request: APIRequestContext, key: string, events: Event[]) {
  const res = await request.post("/api/v1/metadata/ingest", {
    headers: { authorization: `Bearer ${key}` },
    data: events,
  });
  expect(res.status(), await res.text()).toBe(202);
  const body = (await res.json()) as { ingested: number; rejected: unknown[] };
  expect(body.rejected).toEqual([]);
  expect(body.ingested).toBe(events.length);
}

const stat = (page: Page, id: string) => page.getByTestId(`stat-${id}`).getByTestId("stat-value");
const statNote = (page: Page, id: string) => page.getByTestId(`stat-${id}`).getByTestId("stat-note");

/** The cells of the row of `table` whose first cell reads `first`. */
function rowCells(table: Locator, first: string): Locator {
  return table
    .getByRole("row")
    .filter({ has: table.page().getByRole("cell", { name: first, exact: true }) })
    .getByRole("cell");
}

async function showTab(page: Page, name: string) {
  const tab = page.getByRole("tablist", { name: "Group by" }).getByRole("tab", { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute("aria-selected", "true");
}

async function shoot(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  // 390 px wide: tables scroll inside their card, the page itself never sideways.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

test("usage pages match what was ingested — totals, series, breakdowns, failovers, unpriced tokens, limits, CSV — and a viewer sees them", async ({
  page,
  request,
  browser,
}) => {
  await page.setViewportSize(DESKTOP);
  const run = Math.random().toString(36).slice(2, 8);
  const orgName = `Usage ${run}`;
  await signUp(page, "Una Usage", uniqueEmail("usage"));
  await createOrganization(page, orgName);
  const project = await createProjectWithKey(page, `checkout-${run}`);

  await page.goto("/usage");
  await expect(page.getByRole("heading", { name: "No usage in this range" })).toBeVisible();

  // Seed catalogue prices (USD per million tokens): gpt-4o-mini 0.15 in / 0.60 out,
  // claude-sonnet-4-5 3.00 in / 15.00 out. house-llama-70b on an OpenAI-compatible lane has no card.
  const runA = `eval-${run}`;
  const runB = `support-${run}`;
  await ingest(request, project.key, [
    // 1000 × 0.15 + 500 × 0.60 = $0.00045
    event({
      provider: "openai",
      model: "gpt-4o-mini",
      input: 1000,
      output: 500,
      run: runA,
      runName: "nightly-eval",
      tags: { team: "search", env: "prod" },
      latencyMs: 400,
    }),
    // 2000 × 0.15 + 1000 × 0.60 = $0.0009
    event({
      provider: "openai",
      model: "gpt-4o-mini",
      input: 2000,
      output: 1000,
      run: runA,
      runName: "nightly-eval",
      tags: { team: "search" },
      latencyMs: 600,
    }),
    // Unpriced: 300 + 200 = 500 tokens, never $0.
    event({
      provider: "openai_compatible",
      model: "house-llama-70b",
      input: 300,
      output: 200,
      run: runB,
      tags: { team: "support" },
      latencyMs: 900,
    }),
    // openai's breaker was open: anthropic served it. 100 × 3 + 50 × 15 = $0.00105
    event({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      input: 100,
      output: 50,
      run: runB,
      tags: { team: "support" },
      latencyMs: 1200,
      extra: {
        is_provider_fallback: true,
        requested_provider: "openai",
        requested_model: "gpt-4o-mini",
        failover_reason: "circuit_open",
      },
    }),
    // Denied by the budget: no spend, avoided 4000 × 0.15 + 1000 (output bound) × 0.60 = $0.0012.
    event({
      provider: "openai",
      model: "gpt-4o-mini",
      input: 4000,
      output: 0,
      status: "budget_denied",
      run: runA,
      runName: "nightly-eval",
      latencyMs: 1,
      extra: { deny_source: "server", deny_reason: "daily limit", estimated_output_bound: 1000 },
    }),
  ]);

  await test.step("the org-wide page fills in by its own refetch and matches what was sent", async () => {
    // No reload: the page refetches every 15 s while the worker rolls the events up.
    await expect(stat(page, "requests")).toHaveText("5", { timeout: 60_000 });
    await expect(stat(page, "spend")).toHaveText("$0.0024");
    await expect(page.getByTestId("stat-spend")).toHaveAttribute("data-value", /^0\.00240*$/);
    await expect(statNote(page, "spend")).toHaveText("+ unpriced · 500 tokens");
    await expect(stat(page, "unpriced")).toHaveText("unpriced · 500 tokens");
    await expect(statNote(page, "unpriced")).toHaveText("1 call without a price card");
    await expect(stat(page, "avoided")).toHaveText("$0.0012");
    await expect(statNote(page, "avoided")).toHaveText("1 denied call");
    await expect(stat(page, "saved")).toHaveText("20 %");
    await expect(statNote(page, "saved")).toHaveText("1 of 5 calls");
    await expect(page.getByTestId("freshness")).toContainText(/Rolled up to \d{2}:\d{2}:\d{2} UTC/);

    const limit = page.getByRole("progressbar", { name: `checkout-${run}, Daily limit` });
    await expect(limit).toHaveAttribute("aria-valuetext", "$0.0024 of $100.00");

    const providers = page.getByRole("table", { name: "Usage by provider" });
    await expect(rowCells(providers, "openai").nth(1)).toHaveText("3");
    await expect(rowCells(providers, "openai").nth(3)).toHaveText("$0.00135");
    await expect(rowCells(providers, "anthropic").nth(3)).toHaveText("$0.00105");
    await expect(rowCells(providers, "openai_compatible").nth(3)).toHaveText("unpriced · 500 tokens");
    await expect(rowCells(providers, "anthropic").nth(4)).not.toHaveText("—");

    await showTab(page, "Models");
    const models = page.getByRole("table", { name: "Usage by model" });
    await expect(models.getByRole("row")).toHaveCount(4);
    const llama = models.getByRole("row").filter({ hasText: "house-llama-70b" }).getByRole("cell");
    await expect(llama.nth(1)).toHaveText("1");
    await expect(llama.nth(4)).toHaveText("unpriced · 500 tokens");
    const mini = models.getByRole("row").filter({ hasText: "gpt-4o-mini" }).getByRole("cell");
    await expect(mini.nth(2)).toHaveText("7,000");
    await expect(mini.nth(4)).toHaveText("$0.00135");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download models CSV", exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^usage-models-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await file.path()) as string, "utf8")).split("\r\n");
    expect(csv[0]).toBe("provider,model,calls,input_tokens,output_tokens,cost_usd,unpriced_calls");
    expect(csv).toContain("openai_compatible,house-llama-70b,1,300,200,,1");
    expect(csv.find((l) => l.startsWith("openai,gpt-4o-mini,"))).toMatch(
      /^openai,gpt-4o-mini,3,7000,1500,0\.001350*,0$/,
    );
    await shoot(page, "usage-org-models");

    await showTab(page, "Tags");
    const tags = page.getByRole("table", { name: "Usage by tag" });
    await expect(tags.getByRole("row")).toHaveCount(4);
    const search = tags.getByRole("row").filter({ hasText: "search" }).getByRole("cell");
    await expect(search.nth(2)).toHaveText("2");
    await expect(search.nth(3)).toHaveText("$0.00135");

    await showTab(page, "Runs");
    await expect(page).toHaveURL(/[?&]by=run/);
    const runs = page.getByRole("table", { name: "Usage by run" });
    await expect(runs.getByRole("row")).toHaveCount(3);
    const eval_ = runs.getByRole("row").filter({ hasText: "nightly-eval" }).getByRole("cell");
    await expect(eval_.nth(1)).toHaveText(`checkout-${run}`);
    await expect(eval_.nth(2)).toHaveText("3");
    await expect(eval_.nth(3)).toHaveText("$0.00135");
    await expect(eval_.nth(4)).toHaveText("$0.0012");
    await expect(runs.getByRole("link", { name: /^nightly-eval/ })).toHaveAttribute(
      "href",
      `/projects/${project.id}/runs?run=${runA}`,
    );

    const failovers = page.getByRole("table", { name: "Failovers by reason" });
    const open = rowCells(failovers, "Circuit open");
    await expect(open.nth(1)).toHaveText("1");
    await expect(open.nth(2)).toHaveText("1");
    await shoot(page, "usage-org");
  });

  await test.step("the range lives in the URL; an empty range says so", async () => {
    await page.getByRole("combobox", { name: "Range", exact: true }).click();
    await page.getByRole("listbox").getByRole("option", { name: "Last 24 h", exact: true }).click();
    await expect(page.getByRole("listbox")).toHaveCount(0);
    await expect(page).toHaveURL(/[?&]range=24h/);
    await expect(page.getByTestId("range-description")).toHaveText(
      /^Last 24 hours, \w{3} \d{1,2}, \d\d:00 – \w{3} \d{1,2}, \d\d:00 \(UTC\) · by hour$/,
    );
    await expect(stat(page, "requests")).toHaveText("5");

    await page.getByRole("combobox", { name: "Range", exact: true }).click();
    await page.getByRole("listbox").getByRole("option", { name: "Custom range", exact: true }).click();
    await expect(page.getByRole("listbox")).toHaveCount(0);
    const form = page.getByRole("form", { name: "Custom range" });
    await form.getByLabel("From", { exact: true }).fill("2026-01-01");
    await form.getByLabel("To", { exact: true }).fill("2026-01-31");
    await form.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(page).toHaveURL(/range=custom&from=2026-01-01&to=2026-01-31/);
    await expect(page.getByRole("heading", { name: "No usage in this range" })).toBeVisible();
    await expect(page.getByTestId("range-description")).toHaveText("Jan 1 – Jan 31, 2026 (UTC) · by day");

    // A link with an impossible range says so and shows the default range instead.
    await page.goto("/usage?range=custom&from=2026-02-30&to=2026-03-01");
    await expect(
      page.getByRole("alert").filter({ hasText: "The range in the link was not used" }),
    ).toHaveText("The range in the link was not used: Pick both dates. Showing the last 7 days.");
    await expect(stat(page, "requests")).toHaveText("5");
  });

  await test.step("the project's usage page shows the same figures for that project", async () => {
    await page.goto(`/projects/${project.id}`);
    const tabs = page.getByRole("navigation", { name: "Project" });
    await tabs.getByRole("link", { name: "Usage", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/usage$`));
    await expect(tabs.getByRole("link", { name: "Usage", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByRole("heading", { level: 1, name: new RegExp(`^checkout-${run}`) })).toBeVisible();
    await expect(stat(page, "requests")).toHaveText("5");
    await expect(stat(page, "spend")).toHaveText("$0.0024");
    await expect(stat(page, "unpriced")).toHaveText("unpriced · 500 tokens");
    await showTab(page, "Runs");
    const runs = page.getByRole("table", { name: "Usage by run" });
    // No project column on a project's own page.
    await expect(runs.getByRole("columnheader", { name: "Project" })).toHaveCount(0);
    await expect(runs.getByRole("link", { name: runB, exact: true })).toHaveAttribute(
      "href",
      `/projects/${project.id}/runs?run=${runB}`,
    );
    await shoot(page, "usage-project");
  });

  await test.step("a viewer of the organization sees the usage", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const viewer = await context.newPage();
    const email = uniqueEmail("usage-viewer");
    await signUp(viewer, "Vera Viewer", email);
    addMember(email, orgName, "viewer");
    await viewer.goto("/usage");
    await expect(viewer.getByTestId("active-org")).toHaveText(orgName);
    await expect(stat(viewer, "requests")).toHaveText("5");
    await expect(stat(viewer, "spend")).toHaveText("$0.0024");
    await shoot(viewer, "usage-viewer");
    await context.close();
  });
});
