import type { Page } from "@playwright/test";
import { expect, refused, test } from "./fixtures";
import { createOrganization, createProject, PHONE, signUp, uniqueEmail } from "./helpers";
import { type ReceivedMessage, startWebhookLab, type WebhookLab } from "./webhook-lab";
import { budgetCheck, budgetConfirm, createKeyOnPage, fitsWidth } from "./wire-helpers";

// The refusals this spec provokes on purpose (the page shows them as form errors).
test.use({ allowedConsoleErrors: refused("budget.update", "budget.saveTagRule") });

/**
 * Project settings against the production build: the form's limits reach the wire API's next
 * check, a threshold crossing is delivered once by the real worker to a verifying receiver
 * (apps/worker/test/e2e-webhook-lab.ts), viewers read only, bad input shows field errors.
 */

let lab: WebhookLab;
test.beforeAll(async () => {
  lab = await startWebhookLab();
});
test.afterAll(async () => {
  await lab?.stop();
});

async function shoot(page: Page, name: string) {
  const size = page.viewportSize();
  await page.screenshot({ path: `e2e/screenshots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await fitsWidth(page), `${name} fits 390 px`).toBe(true);
  await page.screenshot({ path: `e2e/screenshots/${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** Fills the budget form's fields that are given and saves; waits for the confirmation. */
async function saveBudget(
  form: ReturnType<Page["getByRole"]>,
  fields: { daily?: string; weekly?: string; monthly?: string; thresholds?: string; runCap?: string },
) {
  const inputs: [keyof typeof fields, string][] = [
    ["daily", "Daily limit"],
    ["weekly", "Weekly limit"],
    ["monthly", "Monthly limit"],
    ["thresholds", "Threshold alerts (%)"],
    ["runCap", "Run spend cap"],
  ];
  for (const [k, label] of inputs) {
    const v = fields[k];
    if (v !== undefined) await form.getByRole("textbox", { name: label, exact: true }).fill(v);
  }
  await form.getByRole("button", { name: "Save budget", exact: true }).click();
}

test("project settings: limits reach the next check, one threshold webhook, field errors, viewer read-only", async ({
  page,
  browser,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  const orgName = `Budgets ${run}`;
  await signUp(page, "Bo Budget", uniqueEmail("settings-owner"));
  await createOrganization(page, orgName);
  await lab.control(request, "/plan", { organizationName: orgName, plan: "team" });
  await createProject(page, `billing-${run}`);
  const projectId = page.url().split("/").pop()!;
  const apiKey = await createKeyOnPage(page);

  // An endpoint for budget events only, whose secret the receiver verifies with.
  const created = await page.request.post("/api/trpc/webhooks.createEndpoint", {
    data: { json: { url: `${lab.receiverUrl}/hooks/budget`, eventTypes: ["budget_threshold_crossed"] } },
  });
  expect(created.status(), await created.text()).toBe(200);
  const secret = ((await created.json()) as { result: { data: { json: { secret: string } } } }).result.data
    .json.secret;
  await lab.control(request, "/secrets", { secrets: [secret] });

  const tabs = page.getByRole("navigation", { name: "Project" });
  await tabs.getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/settings$`));
  await expect(tabs.getByRole("link", { name: "Settings", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const form = page.getByRole("form", { name: "Budget settings" });
  await expect(form.getByRole("textbox", { name: "Daily limit", exact: true })).toHaveValue("25");

  await test.step("bad input is refused with a message beside each field, and nothing is saved", async () => {
    await saveBudget(form, { monthly: "-5", thresholds: "50, 1001", runCap: "0" });
    await expect(form.getByTestId("field-limit-monthly")).toContainText("Must be greater than 0");
    await expect(form.getByTestId("field-thresholds")).toContainText(
      "Thresholds must be between 1 and 1000 %",
    );
    await expect(form.getByTestId("field-run-cap")).toContainText("Must be greater than 0");
    await expect(form.getByTestId("form-error")).toBeVisible();
    await saveBudget(form, { daily: "", monthly: "", runCap: "", thresholds: "80" });
    await expect(form.getByTestId("field-limits")).toContainText("Keep at least one period limit");
    await shoot(page, "project-settings-errors");
    await page.reload();
    await expect(form.getByRole("textbox", { name: "Daily limit", exact: true })).toHaveValue("25");
    await expect(form.getByRole("textbox", { name: "Threshold alerts (%)", exact: true })).toHaveValue(
      "50, 80, 100",
    );
  });

  await test.step("hard deny, $1 a month, alerts at 80 and 100 %", async () => {
    await form.getByRole("radio", { name: /Hard deny/ }).check();
    await saveBudget(form, { daily: "", monthly: "1", thresholds: "80, 100" });
    await expect(form.getByRole("status")).toHaveText(/Saved/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Hard deny");
  });

  await test.step("crossing 80 % delivers exactly one budget_threshold_crossed", async () => {
    const first = await budgetCheck(request, apiKey);
    expect(first).toMatchObject({ allowed: true, mode: "hard_deny", budget_limit: 1 });
    await budgetConfirm(request, apiKey, first.reservation_id as string, 340_000); // $0.85 = 85 %
    const received = async () =>
      ((await lab.control(request, "/received")) as ReceivedMessage[]).filter(
        (m) => m.type === "budget_threshold_crossed",
      );
    await expect.poll(async () => (await received()).length, { timeout: 15_000 }).toBe(1);
    // More spend below 100 % fires nothing new.
    const second = await budgetCheck(request, apiKey);
    expect(second.allowed).toBe(true);
    await budgetConfirm(request, apiKey, second.reservation_id as string, 8_000);
    await page.waitForTimeout(2_000);
    const messages = await received();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ verified: true, answered: 200 });
  });

  await test.step("lowering the monthly limit in the form denies the next check", async () => {
    await saveBudget(form, { monthly: "0.5" });
    await expect(form.getByRole("status")).toHaveText(/Saved/);
    const savedAt = Date.now();
    await expect
      .poll(async () => budgetCheck(request, apiKey), { timeout: 1_000, intervals: [50] })
      .toMatchObject({ allowed: false, denied_by_period: "monthly", mode: "hard_deny", budget_limit: 0.5 });
    expect(Date.now() - savedAt).toBeLessThan(1_000);
    await shoot(page, "project-settings");
  });

  await test.step("a tag rule needs a selector; with one it is listed", async () => {
    const panel = page.getByTestId("tag-rules");
    await panel.getByRole("button", { name: "Add rule", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Add tag rule" });
    await dialog.getByRole("textbox", { name: "Rule name", exact: true }).fill("search team");
    await dialog.getByRole("textbox", { name: "Rule limit (USD)", exact: true }).fill("20");
    await dialog.getByRole("button", { name: "Add rule", exact: true }).click();
    await expect(dialog.getByTestId("field-selector")).toContainText("Add at least one selector tag");
    await dialog.getByRole("textbox", { name: "Selector tags", exact: true }).fill("team=search, env=prod");
    await dialog.getByRole("button", { name: "Add rule", exact: true }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const row = panel.getByTestId("tag-rule-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("env=prod, team=search"); // listed in name order
    await expect(row).toContainText("$20.00 per day");
  });

  await test.step("a viewer sees the settings read-only and the procedure refuses their write", async () => {
    const context = await browser.newContext();
    const viewer = await context.newPage();
    const email = uniqueEmail("settings-viewer");
    await signUp(viewer, "Val Viewer", email);
    await lab.control(request, "/member", { email, organizationName: orgName, role: "viewer" });
    await viewer.goto(`/projects/${projectId}/settings`);
    const vform = viewer.getByRole("form", { name: "Budget settings" });
    await expect(vform.getByTestId("settings-read-only")).toBeVisible();
    await expect(vform.getByRole("textbox", { name: "Monthly limit", exact: true })).toHaveValue("0.5");
    await expect(vform.getByRole("textbox", { name: "Monthly limit", exact: true })).toBeDisabled();
    await expect(vform.getByRole("radio", { name: /Alert only/ })).toBeDisabled();
    await expect(viewer.getByRole("button", { name: "Save budget" })).toHaveCount(0);
    await expect(viewer.getByRole("button", { name: "Add rule" })).toHaveCount(0);
    await expect(viewer.getByRole("button", { name: "Edit" })).toHaveCount(0);
    await shoot(viewer, "project-settings-viewer");

    const res = await viewer.request.post("/api/trpc/budget.update", {
      data: {
        json: {
          projectId,
          mode: "alert_only",
          limits: { daily: null, weekly: null, monthly: 1000 },
          thresholds: [50],
          runSpendCapUsd: null,
        },
      },
    });
    expect(res.status()).toBe(403);
    expect(JSON.stringify(await res.json())).toContain('"FORBIDDEN"');
    await context.close();
    // Still denied: the viewer changed nothing.
    expect(await budgetCheck(request, apiKey)).toMatchObject({ allowed: false, budget_limit: 0.5 });
  });
});
