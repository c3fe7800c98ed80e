import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { bw, createOperator } from "./cli";
import { expect, refused, test } from "./fixtures";
import { createOrganization, createProject, PASSWORD, PHONE, signUp, uniqueEmail } from "./helpers";

/**
 * The operator console against the production build: plans, organizations, overrides and what
 * reaches the SDKs, with a non-operator admin on the other side.
 */

// The second tab's save of a plan that changed under it is refused (409, shown as a form error).
test.use({ allowedConsoleErrors: refused("operator.updatePlan") });

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
  await page.screenshot({ path: `e2e/screenshots/${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** Chooses `option` in the kit Select named `name` inside `scope`, then waits for the listbox to close. */
async function choose(page: Page, scope: ReturnType<Page["getByRole"]> | Page, name: string, option: string) {
  await scope.getByRole("combobox", { name, exact: true }).click();
  await page.getByRole("listbox").getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

async function failoverAllowed(request: APIRequestContext, apiKey: string): Promise<boolean> {
  const res = await request.post("/api/v1/budgets/check", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      estimated_input_tokens: 100,
      model: "gpt-4o",
      provider: "openai",
      failover_directive_version: "1",
      price_hints_version: "1",
      run_directive_version: "1",
    },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { failover_directive: { failover_tuning_allowed: boolean } };
  return body.failover_directive.failover_tuning_allowed;
}

/** Opens the team plan's editor and sets failover_tuning, returning once the new version is saved. */
async function setTeamFailover(page: Page, on: boolean) {
  await page.goto("/plans/team");
  await choose(page, page, "failover_tuning", on ? "On" : "Off");
  await page.getByRole("button", { name: "Save new version", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved as version \d+\.$/ })).toBeVisible();
}

async function tabs(browser: Browser, email: string) {
  const context = await browser.newContext();
  const a = await context.newPage();
  await signIn(a, email);
  const b = await context.newPage();
  return { context, a, b };
}

test("operator console: plans, organizations and overrides reach the SDKs; non-operators are kept out", async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const operatorEmail = uniqueEmail("operator");
  createOperator(operatorEmail, "Olive Operator");

  // An admin (not an operator) with an organization on Free and one project.
  const orgName = `Harbor ${Date.now().toString(36)}`;
  await signUp(page, "Ada Admin", uniqueEmail("admin"));
  await createOrganization(page, orgName);
  await createProject(page, "checkout");
  const projectId = /\/projects\/(proj_[0-9a-f]{24})$/.exec(page.url())?.[1] ?? "";
  const apiKey = String(bw("key", "create", "--project", projectId).api_key);

  // Non-operator: no operator nav, an "operators only" page, FORBIDDEN from the procedures.
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Plans/ }),
  ).toHaveCount(0);
  await page.goto("/plans");
  await expect(page.getByRole("heading", { name: "Operators only", exact: true })).toBeVisible();
  const forbidden = await page.request.get("/api/trpc/operator.listPlans");
  expect(forbidden.status()).toBe(403);
  expect(await forbidden.text()).toContain("FORBIDDEN");
  const forbiddenWrite = await page.request.post("/api/trpc/operator.setOrganizationPlan", {
    data: { json: { organization: orgName, planSlug: "business" } },
  });
  expect(forbiddenWrite.status()).toBe(403);
  await shoot(page, "operator-forbidden");

  // Free: no webhook endpoints.
  const addEndpoint = () =>
    page.request.post("/api/trpc/webhooks.createEndpoint", {
      data: { json: { url: "http://127.0.0.1:9/operator-e2e-hook" } },
    });
  expect((await addEndpoint()).status()).toBe(412);

  // The operator moves the organization from Free to Team.
  // An operator made by the CLI belongs to no organization: sign-in lands on the console.
  const op = await tabs(browser, operatorEmail);
  await expect(op.a).toHaveURL(/\/plans$/);
  await op.a.goto("/plans/organizations");
  const row = op.a.getByRole("row").filter({ hasText: orgName });
  await expect(row).toContainText("Free");
  await row.getByRole("button", { name: `Manage ${orgName}`, exact: true }).click();
  const dialog = op.a.getByRole("dialog");
  await choose(op.a, dialog, "Plan", "Team");
  await dialog.getByRole("button", { name: "Change plan", exact: true }).click();
  await expect(dialog.getByRole("status").filter({ hasText: /^Now on Team v\d+\.$/ })).toBeVisible();
  await shoot(op.a, "operator-organizations");
  await op.a.keyboard.press("Escape");
  await expect(op.a.getByRole("dialog")).toHaveCount(0);

  // …and the admin can now add a webhook endpoint.
  const added = await addEndpoint();
  expect(added.status(), await added.text()).toBe(200);

  // Failover tuning off on Team: the next budget check says so within a second.
  expect(await failoverAllowed(page.request, apiKey)).toBe(true);
  await setTeamFailover(op.a, false);
  const savedAt = Date.now();
  await expect
    .poll(() => failoverAllowed(page.request, apiKey), { timeout: 5_000, intervals: [50] })
    .toBe(false);
  const elapsed = Date.now() - savedAt;
  test
    .info()
    .annotations.push({ type: "failover off reached the check after", description: `${elapsed} ms` });
  expect(elapsed).toBeLessThan(1_000);
  await shoot(op.a, "operator-plan-editor");

  // A project override turns it back on, and the project page names it as the reason.
  await op.a.goto("/plans/organizations");
  await op.a
    .getByRole("row")
    .filter({ hasText: orgName })
    .getByRole("button", { name: `Manage ${orgName}`, exact: true })
    .click();
  const manage = op.a.getByRole("dialog");
  await choose(op.a, manage, "Applies to", "Project checkout");
  await choose(op.a, manage, "Feature", "failover_tuning");
  await choose(op.a, manage, "Value", "On");
  await manage.getByLabel("Reason", { exact: true }).fill("pilot customer");
  await manage.getByRole("button", { name: "Set override", exact: true }).click();
  await expect(manage.getByRole("table", { name: "Overrides" })).toContainText("pilot customer");
  await expect
    .poll(() => failoverAllowed(page.request, apiKey), { timeout: 5_000, intervals: [50] })
    .toBe(true);

  await page.goto(`/projects/${projectId}`);
  const directive = page.getByTestId("failover-directive");
  await expect(directive).toContainText("failover_tuning_allowed: true");
  await expect(directive).toContainText("Project override: pilot customer");
  await expect(page.getByTestId("entitlement-breaker_webhooks")).toContainText("Plan Team");
  await shoot(page, "operator-project-entitlements");

  // Two tabs edit one plan: the second save is refused with the message.
  await op.a.goto("/plans/team");
  await op.b.goto("/plans/team");
  await op.a.getByLabel("Price per month (USD)", { exact: true }).fill("151");
  await op.a.getByRole("button", { name: "Save new version", exact: true }).click();
  await expect(op.a.getByRole("status").filter({ hasText: /^Saved as version \d+\.$/ })).toBeVisible();
  await op.b.getByLabel("Price per month (USD)", { exact: true }).fill("152");
  await op.b.getByRole("button", { name: "Save new version", exact: true }).click();
  await expect(op.b.getByTestId("form-error")).toContainText("changed since you opened it");
  await shoot(op.b, "operator-plan-conflict");

  // Leave Team as seeded for the other specs: price and failover tuning back.
  await op.a.goto("/plans/team");
  await op.a.getByLabel("Price per month (USD)", { exact: true }).fill("149");
  await setTeamFailoverOnCurrentPage(op.a);
  await op.context.close();
});

async function setTeamFailoverOnCurrentPage(page: Page) {
  await choose(page, page, "failover_tuning", "On");
  await page.getByRole("button", { name: "Save new version", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved as version \d+\.$/ })).toBeVisible();
}
