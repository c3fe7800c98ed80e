import { expect, test } from "@playwright/test";
import { createOrganization, createProject, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";

test("revoking a key asks in an accessible dialog: Cancel keeps it, Revoke revokes it", async ({ page }) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Rae Revoke", uniqueEmail("revoke"));
  await createOrganization(page, `Revokers ${run}`);
  await createProject(page, `keys-${run}`);

  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill("ci");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key").locator("code")).toHaveText(/^sk_proj_[0-9a-f]{64}$/);
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
