import { expect, test } from "./fixtures";
import { createOrganization, createProject, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";
import { budgetCheck } from "./wire-helpers";

test("a new key is in Connect an SDK's .env while shown; revoking asks in an accessible dialog: Cancel keeps it, Revoke revokes it", async ({
  page,
  context,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Rae Revoke", uniqueEmail("revoke"));
  await createOrganization(page, `Revokers ${run}`);
  await createProject(page, `keys-${run}`);

  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill("ci");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key").locator("code")).toHaveText(/^sk_proj_[0-9a-f]{64}$/);
  const apiKey = (await page.getByTestId("new-key").locator("code").textContent()) ?? "";

  // While the key is on screen, "Connect an SDK" carries it: one Copy gives a working .env.
  await expect(page.getByTestId("sdk-api-key")).toHaveText(apiKey);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy .env", exact: true }).click();
  const env = Object.fromEntries(
    (await page.evaluate(() => navigator.clipboard.readText()))
      .split("\n")
      .map((line) => line.split("=", 2) as [string, string]),
  );
  expect(env.SOLWYN_API_KEY).toBe(apiKey);
  expect(env.SOLWYN_API_URL).toBe(await page.getByTestId("sdk-base-url").textContent());
  // The key answers a budget check (here on the dashboard's own /api/v1; no SDK server runs in e2e).
  expect(await budgetCheck(page.request, env.SOLWYN_API_KEY ?? "")).toMatchObject({ allowed: true });
  await screenshot(page, "connect-sdk-new-key-desktop");
  // Done hides the key everywhere.
  await page.getByTestId("new-key").getByRole("button", { name: "Done", exact: true }).click();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await expect(page.getByTestId("sdk-api-key")).toHaveCount(0);
  await expect(page.getByText("sk_proj_… (a key above)")).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "ci", exact: true }) });
  await expect(row.getByText("Read & write")).toBeVisible();

  // The question is an alertdialog named by its title, with focus on Cancel.
  const revokeButton = row.getByRole("button", { name: "Revoke", exact: true });
  await revokeButton.click();
  const dialog = page.getByRole("alertdialog", { name: "Revoke “ci”?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("stop at once");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await screenshot(page, "revoke-key-desktop");

  // Cancel keeps the key, and focus returns to the button that asked.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(revokeButton).toBeFocused();
  await expect(row.getByText("Read & write")).toBeVisible();

  // Escape cancels as well.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(row.getByText("Read & write")).toBeVisible();

  // On a phone the dialog fits the screen.
  await page.setViewportSize(PHONE);
  await revokeButton.click();
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.width ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "revoke-key-phone");

  // Confirm revokes it, and the list says so (no more Revoke button).
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(row.getByText("Revoked")).toBeVisible();
  await expect(row.getByRole("button", { name: "Revoke", exact: true })).toHaveCount(0);
  await page.reload();
  await expect(
    page
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "ci", exact: true }) })
      .getByText("Revoked"),
  ).toBeVisible();
});
