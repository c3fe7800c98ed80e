import { randomUUID } from "node:crypto";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { bw, createOperator } from "./cli";
import { expect, refused, test } from "./fixtures";
import { createOrganization, PASSWORD, PHONE, signUp, uniqueEmail } from "./helpers";

// The refusals this spec provokes on purpose (the page shows them as form errors).
test.use({ allowedConsoleErrors: refused("operator.updatePriceCard") });

/**
 * The price catalogue against the production build: an operator edits a card and the next budget
 * check through the wire API carries the new price_hints (the explainer agrees, from the same
 * function); bad cards get field errors; a model seen unpriced is priced and its past events are
 * re-priced by the production worker (started beside the dashboard by playwright.config.ts);
 * non-operators are refused.
 */

async function signIn(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in$/);
}

async function shoot(page: Page, name: string) {
  const size = page.viewportSize();
  await page.screenshot({ path: `e2e/screenshots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  // No horizontal page scroll at 390 px: tables scroll inside their container.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: `e2e/screenshots/${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** Chooses `option` in the kit Select named `name` inside `scope`, then waits for the listbox to close. */
async function choose(page: Page, scope: Locator, name: string, option: string) {
  await scope.getByRole("combobox", { name, exact: true }).click();
  await page.getByRole("listbox").getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

/** A budget check as the SDK sends it (all three opt-ins); returns its price_hints. */
async function checkHints(
  request: APIRequestContext,
  apiKey: string,
  chain: [string, string][],
): Promise<Record<string, number>> {
  const [primary, ...fallbacks] = chain;
  const [provider, model] = primary as [string, string];
  const res = await request.post("/api/v1/budgets/check", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      estimated_input_tokens: 1000,
      provider,
      model,
      fallback_providers: fallbacks.map((f) => f[0]),
      fallback_models: fallbacks.map((f) => f[1]),
      failover_directive_version: "1",
      run_directive_version: "1",
      price_hints_version: "1",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { price_hints: Record<string, number> }).price_hints;
}

/** Fills the card form's required fields. */
async function fillCard(form: Locator, c: { input: string; output: string }) {
  await form.getByRole("textbox", { name: "Input rate", exact: true }).fill(c.input);
  await form.getByRole("textbox", { name: "Output rate", exact: true }).fill(c.output);
  await form.getByRole("textbox", { name: "Source URL", exact: true }).fill("https://example.test/pricing");
}

/** What the explainer shows for the chain as price_hints. */
async function explain(page: Page, chain: [string, string][]): Promise<Record<string, number>> {
  await page.goto("/plans/prices/explain");
  const form = page.getByRole("form", { name: "Chain" });
  // The default chain has two entries: set them, then add the rest.
  for (let i = 0; i < chain.length; i++) {
    if (i >= 2) await form.getByRole("button", { name: "Add fallback", exact: true }).click();
    const label = i === 0 ? "Primary" : `Fallback ${i}`;
    await choose(page, form, `${label} provider`, chain[i]![0]);
    await form.getByRole("textbox", { name: `${label} model`, exact: true }).fill(chain[i]![1]);
  }
  await form.getByRole("textbox", { name: "Estimated input tokens", exact: true }).fill("1000");
  await form.getByRole("button", { name: "Explain", exact: true }).click();
  const hints = page.getByTestId("explain-hints");
  await expect(hints).toBeVisible();
  return JSON.parse((await hints.textContent()) ?? "null") as Record<string, number>;
}

test("price catalogue: an edit reaches the next budget check's hints; bad cards are refused; unpriced models are re-priced", async ({
  page,
  browser,
}) => {
  const id = randomUUID().slice(0, 8);
  const operatorEmail = uniqueEmail("prices-op");
  createOperator(operatorEmail, "Pat Prices");
  const project = bw("project", "create", "--name", `prices-${id}`, "--daily", "1000");
  const apiKey = String(project.api_key);

  // A non-operator is refused: the page says so and the procedures answer FORBIDDEN.
  const other = await browser.newContext();
  const outsider = await other.newPage();
  await signUp(outsider, "Nora Noop", uniqueEmail("prices-noop"));
  await createOrganization(outsider, `Outside ${id}`);
  await outsider.goto("/plans/prices");
  await expect(outsider.getByRole("heading", { name: "Operators only", exact: true })).toBeVisible();
  const read = await outsider.request.get(
    "/api/trpc/operator.listPriceCards?input=%7B%22json%22%3A%7B%7D%7D",
  );
  expect(read.status()).toBe(403);
  expect(await read.text()).toContain("FORBIDDEN");
  const write = await outsider.request.post("/api/trpc/operator.createPriceCard", {
    data: { json: { provider: "fireworks", model: `sneaky-${id}`, inputPerMtok: "0", outputPerMtok: "0" } },
  });
  expect(write.status()).toBe(403);
  const explainAsOutsider = await outsider.request.get(
    `/api/trpc/operator.explainPriceHints?input=${encodeURIComponent(JSON.stringify({ json: { provider: "openai", model: "gpt-5.5", estimatedInputTokens: 1 } }))}`,
  );
  expect(explainAsOutsider.status()).toBe(403);
  await other.close();

  // An operator without an organization lands on the operator console (/plans); founding one of
  // their own starts from onboarding, as the switcher's "New organization" does.
  await signIn(page, operatorEmail);
  await expect(page).toHaveURL(/\/plans$/);
  await page.goto("/onboarding?new=1");
  await createOrganization(page, `Pricing ${id}`);

  // The operator adds a card for a model of its own (so no other test's prices move).
  const model = `e2e-hint-${id}`;
  await page.goto("/plans/prices");
  await page.getByRole("link", { name: "Add card", exact: true }).click();
  const form = page.getByRole("form", { name: "Price card" });
  await choose(page, form, "Provider", "fireworks");
  await form.getByRole("textbox", { name: "Model id", exact: true }).fill(model);
  await fillCard(form, { input: "1", output: "1" });
  await form.getByRole("button", { name: "Add card", exact: true }).click();
  await expect(page).toHaveURL(/\/plans\/prices\/card_[0-9a-f]{24}$/);
  const cardUrl = page.url();

  const chain: [string, string][] = [
    ["fireworks", model],
    ["openai", "gpt-5.5"],
  ];
  const before = await explain(page, chain);
  expect(Object.keys(before).sort()).toEqual(["fireworks", "openai"]);
  await expect.poll(() => checkHints(page.request, apiKey, chain), { timeout: 5_000 }).toEqual(before);
  await shoot(page, "prices-explainer");

  // Field errors: a negative rate, and a long-context bracket priced below the standard one.
  await page.goto(cardUrl);
  const edit = page.getByRole("form", { name: "Price card" });
  await edit.getByRole("textbox", { name: "Input rate", exact: true }).fill("-1");
  await edit.getByRole("textbox", { name: "Threshold (input tokens)", exact: true }).fill("1000");
  await edit.getByRole("textbox", { name: "Long input rate", exact: true }).fill("0.5");
  await edit.getByRole("textbox", { name: "Long output rate", exact: true }).fill("5");
  await edit.getByRole("button", { name: "Save card", exact: true }).click();
  await expect(edit.getByTestId("error-inputPerMtok")).toHaveText("A rate cannot be negative");
  await expect(edit.getByRole("textbox", { name: "Input rate", exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await edit.getByRole("textbox", { name: "Input rate", exact: true }).fill("2");
  await edit.getByRole("button", { name: "Save card", exact: true }).click();
  await expect(edit.getByTestId("error-long-inputPerMtok")).toHaveText(
    "Overlaps the standard bracket: a long-context rate cannot be below the standard rate",
  );
  await expect(edit.getByTestId("error-inputPerMtok")).toHaveCount(0);
  await shoot(page, "prices-card-errors");
  // Nothing was written: the wire still answers the old hints.
  expect(await checkHints(page.request, apiKey, chain)).toEqual(before);

  // A valid edit of the input price: the next budget check carries the new hints within 1 s.
  for (const f of ["Threshold (input tokens)", "Long input rate", "Long output rate"])
    await edit.getByRole("textbox", { name: f, exact: true }).fill("");
  await edit.getByRole("textbox", { name: "Input rate", exact: true }).fill("50");
  await edit.getByRole("button", { name: "Save card", exact: true }).click();
  await expect(edit.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const savedAt = Date.now();
  await expect
    .poll(async () => JSON.stringify(await checkHints(page.request, apiKey, chain)), {
      timeout: 5_000,
      intervals: [25],
    })
    .not.toBe(JSON.stringify(before));
  const elapsed = Date.now() - savedAt;
  test.info().annotations.push({ type: "edit reached the check after", description: `${elapsed} ms` });
  expect(elapsed).toBeLessThan(1_000);
  const wire = await checkHints(page.request, apiKey, chain);
  const after = await explain(page, chain);
  expect(after).toEqual(wire);
  expect(after.fireworks).not.toBe(before.fireworks);
  const entry = page.getByTestId("explain-entry-0");
  await expect(entry).toContainText(`fireworks/${model}`);
  await expect(entry).toContainText("$50.00 / $1.00");

  // Unpriced model seen in traffic → priced → its past events re-priced by the worker.
  const unpriced = `e2e-unpriced-${id}`;
  const at = Date.now();
  const res = await page.request.post("/api/v1/metadata/ingest", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: [0, 1, 2].map((i) => ({
      model: unpriced,
      provider: "fireworks",
      modality: "text",
      input_tokens: 1000,
      output_tokens: 200,
      latency_ms: 300,
      status: "success",
      is_model_fallback: false,
      is_provider_fallback: false,
      attempt_index: 0,
      call_id: randomUUID(),
      sdk_instance_id: `prices-${id}`,
      timestamp: new Date(at - 60_000 + i).toISOString().replace("Z", "000Z"),
    })),
  });
  expect(res.status(), await res.text()).toBe(202);
  expect(((await res.json()) as { ingested: number }).ingested).toBe(3);

  await page.goto("/plans/prices/unpriced");
  // Only the 200 models with most calls are listed: the search finds this one among earlier tests'.
  await page.getByRole("searchbox", { name: "Search unpriced models", exact: true }).fill(unpriced);
  const models = page.getByRole("table", { name: "Unpriced models" });
  const row = models.getByTestId(`unpriced-fireworks-${unpriced}`);
  await expect(row).toContainText("3");
  await expect(row).toContainText("3,600");
  await shoot(page, "prices-unpriced");
  await row.getByRole("link", { name: `Price fireworks/${unpriced}`, exact: true }).click();
  const priceIt = page.getByRole("form", { name: "Price card" });
  await expect(priceIt.getByRole("textbox", { name: "Model id", exact: true })).toHaveValue(unpriced);
  await fillCard(priceIt, { input: "3", output: "15" });
  await priceIt.getByRole("button", { name: "Save and re-price", exact: true }).click();
  await expect(page).toHaveURL(/\/plans\/prices\/unpriced$/);
  const run = page.getByRole("table", { name: "Re-pricing runs" }).getByTestId(`run-fireworks-${unpriced}`);
  await expect(run).toBeVisible();
  await expect(run.getByTestId("run-progress")).toHaveText("3 of 3 re-priced", { timeout: 20_000 });
  await expect(run).toContainText("Done", { timeout: 20_000 });
  await expect(run.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  // Its events are all priced now: searched for, it is no longer an unpriced model.
  await page.getByRole("searchbox", { name: "Search unpriced models", exact: true }).fill(unpriced);
  await expect(page.getByRole("heading", { name: "No unpriced model matches", exact: true })).toBeVisible();
  await shoot(page, "prices-repriced");

  // The catalogue list finds both cards by search.
  await page.goto("/plans/prices");
  await page.getByRole("searchbox", { name: "Search cards", exact: true }).fill(id);
  const cards = page.getByRole("table", { name: "Price cards" });
  await expect(cards.getByRole("row")).toHaveCount(3);
  await expect(cards.getByTestId(`card-row-fireworks-${model}`)).toContainText("$50.00");
  await shoot(page, "prices-catalogue");
});
