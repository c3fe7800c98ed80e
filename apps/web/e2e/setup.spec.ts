import pg from "pg";
import { testHarnessEnv } from "../../../packages/config/src/test-env";
import { bw, bwRun } from "./cli";
import { expect, refused, test } from "./fixtures";
import { PASSWORD, PHONE, uniqueEmail } from "./helpers";

// The only operator revoking their own role is refused, on purpose.
test.use({ allowedConsoleErrors: refused("operator.setOperatorRole") });

/**
 * The first operator of an installation comes from the one-time setup link (never from signing
 * up first): the link creates the operator account, and a second use is refused.
 */

test("the setup link creates the operator; a second use is refused", async ({ page, browser }) => {
  // A fresh installation has no operator: other specs' operators lose the role here (each spec
  // makes its own with `bw user create --operator`).
  const db = new pg.Client({ connectionString: testHarnessEnv().E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query("UPDATE users SET is_operator = false WHERE is_operator");
  } finally {
    await db.end();
  }
  const link = bw("operator", "setup-link");
  const url = new URL(String(link.url));
  expect(url.pathname).toMatch(/^\/setup\/[A-Za-z0-9_-]{43}$/);

  // Signing up is not enough.
  const email = uniqueEmail("first-op");
  await page.goto(url.pathname);
  await expect(page.getByRole("heading", { name: "Set up the operator", exact: true })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/setup-desktop.png", fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: "e2e/screenshots/setup-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Fran First");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
  await page.getByRole("main").getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create operator account", exact: true }).click();
  // The link lands on the operator console, which needs no organization: every operator page
  // answers, none sends the operator to onboarding.
  await expect(page).toHaveURL(/\/plans$/);
  await expect(page.getByRole("heading", { level: 1, name: "Plans", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Operators only", exact: true })).toHaveCount(0);
  await expect(page.getByTestId("active-org")).toHaveText("No organization");
  for (const [path, title] of [
    ["/plans/organizations", "Organizations"],
    ["/plans/prices", "Prices"],
    ["/plans/prices/unpriced", "Unpriced models"],
    ["/plans/prices/explain", "Why this hint"],
    ["/plans/prices/new", "Add a price card"],
    ["/plans/operators", "Operators"],
    ["/plans/team", "Team"],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  }
  // Home is the console too; the organization pages still ask for an organization first.
  await page.goto("/");
  await expect(page).toHaveURL(/\/plans$/);
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/onboarding$/);

  // The only operator cannot revoke their own role (the installation would have none).
  await page.goto("/plans/operators");
  await page.getByRole("searchbox", { name: "Find a user", exact: true }).fill(email);
  const me = page.getByRole("table", { name: "Users" }).getByTestId(`user-row-${email}`);
  await expect(me).toContainText("Operator");
  await me.getByRole("button", { name: `Revoke operator role of ${email}`, exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByTestId("form-error")).toContainText("last operator");
  await expect(me).toContainText("Operator");
  await page.screenshot({ path: "e2e/screenshots/setup-operators-desktop.png", fullPage: true });

  // The link is spent: another visitor is told so and cannot use it.
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto(url.pathname);
  const refused = second.getByTestId("setup-refused");
  await expect(refused).toContainText("This setup link was already used");
  await expect(second.getByRole("button", { name: "Create operator account", exact: true })).toHaveCount(0);
  await second.screenshot({ path: "e2e/screenshots/setup-used-desktop.png", fullPage: true });
  await second.setViewportSize(PHONE);
  await second.screenshot({ path: "e2e/screenshots/setup-used-phone.png", fullPage: true });
  // …and redeeming it directly is refused too.
  const redeem = await second.request.post("/api/trpc/setup.redeem", {
    data: { json: { token: url.pathname.split("/")[2] } },
  });
  expect(redeem.status()).toBe(401);
  await other.close();

  // No new link while an operator exists.
  const again = bwRun("operator", "setup-link");
  expect(again.status).toBe(2);
  expect(again.stderr).toContain("already has an operator");
});
