import { expect, test } from "./fixtures";
import { createOrganization, signUp, uniqueEmail } from "./helpers";

test("the organization switcher creates and switches between a user's organizations", async ({ page }) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Sam Switch", uniqueEmail("switch"));
  await createOrganization(page, `First ${run}`);

  await page.getByRole("button", { name: "Switch organization" }).click();
  await page.getByRole("menuitem", { name: "New organization" }).click();
  await expect(page).toHaveURL(/\/onboarding\?new=1$/);
  await createOrganization(page, `Second ${run}`);

  await page.getByRole("button", { name: "Switch organization" }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: `First ${run}` })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: `Second ${run}` })).toBeVisible();
  await menu.getByRole("menuitem", { name: `First ${run}` }).click();
  await expect(page.getByTestId("active-org")).toHaveText(`First ${run}`);

  // The choice is kept in the session, not just in the page.
  await page.reload();
  await expect(page.getByTestId("active-org")).toHaveText(`First ${run}`);
});
