import { expect, test } from "./fixtures";
import { createOrganization, createProject, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";

test("a lease granted through the dashboard's /api/v1 is listed on the project page", async ({
  page,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Lee Lease", uniqueEmail("lease"));
  await createOrganization(page, `Leasers ${run}`);
  await createProject(page, `leases-${run}`);

  // No lease yet: the section says what will appear.
  const section = page
    .getByRole("heading", { name: "Active leases", exact: true })
    .locator("xpath=ancestor::div[contains(@class,'rounded-lg')][1]");
  await expect(section.getByText("No active leases", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill("agent");
  await page.getByRole("button", { name: "Create key" }).click();
  const apiKey = (await page.getByTestId("new-key").locator("code").textContent())?.trim() ?? "";
  expect(apiKey).toMatch(/^sk_proj_[0-9a-f]{64}$/);

  // The SDK's grant, sent to the dashboard's own origin (single-port deployment).
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const holder = `holder-${run}`;
  const grant = await request.post("/api/v1/budgets/lease", {
    headers,
    data: {
      agent_run_id: `run-${run}`,
      holder_id: holder,
      model: "gpt-5.5",
      provider: "openai",
      fallback_providers: [],
      fallback_models: [],
      fail_open: true,
      estimated_input_tokens: 100,
      run_directive_version: "1",
    },
  });
  expect(grant.status()).toBe(200);
  const answer = (await grant.json()) as { lease_id: string; generation: number; granted_tokens: number };
  expect(answer.generation).toBe(1);
  expect(answer.lease_id).toMatch(/^lse_[0-9a-f]{24}$/);

  await page.reload();
  const table = page.getByRole("table", { name: "Active leases" });
  const row = table.getByRole("row").filter({ has: page.getByRole("cell", { name: holder, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell", { name: `run-${run}`, exact: true })).toBeVisible();
  await expect(row.getByRole("cell").nth(2)).toHaveText("1");
  await expect(row.getByRole("cell").nth(3)).toHaveText(answer.granted_tokens.toLocaleString("en-US"));
  await expect(row.getByRole("cell").nth(4)).toHaveText("0");

  // A renewal shows as the next generation once the list is refreshed.
  const renew = await request.post("/api/v1/budgets/lease/renew", {
    headers,
    data: { lease_id: answer.lease_id, holder_id: holder, generation: 1, spent_tokens: 0 },
  });
  expect(renew.status()).toBe(200);
  await page.getByRole("button", { name: "Refresh", exact: true }).click();
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await screenshot(page, "leases-desktop");

  await page.setViewportSize(PHONE);
  await expect(table).toBeVisible();
  // The section fits the phone; a wide table scrolls inside it.
  await section.scrollIntoViewIfNeeded();
  const box = await section.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "leases-phone");

  // Surrendered, it leaves the list.
  const surrender = await request.post("/api/v1/budgets/lease/surrender", {
    headers,
    data: { lease_id: answer.lease_id, holder_id: holder, generation: 2, spent_tokens: 0 },
  });
  expect(await surrender.json()).toEqual({ released_tokens: answer.granted_tokens });
  await page.getByRole("button", { name: "Refresh", exact: true }).click();
  await expect(table).toHaveCount(0);
  await expect(section.getByText("No active leases", { exact: true })).toBeVisible();
});

test("an unknown path under /api/v1 answers the SDK API's JSON 404, not a page", async ({ request }) => {
  for (const method of ["GET", "POST"] as const) {
    const res = await request.fetch("/api/v1/no-such-endpoint/here", {
      method,
      data: method === "POST" ? {} : undefined,
    });
    expect(res.status()).toBe(404);
    expect(res.headers()["content-type"]).toContain("application/json");
    expect(await res.text()).toBe('{"detail":"Not Found"}');
  }
});
