import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createOrganization, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";

/** Two organizations, Alpha then Bravo (Bravo active), the second one made from the menu by keyboard. */
async function twoOrganizations(page: Page, run: string) {
  await signUp(page, "Kim Keys", uniqueEmail("keys"));
  await createOrganization(page, `Alpha ${run}`);

  const trigger = page.getByRole("button", { name: "Switch organization" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: `Alpha ${run}` })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "New organization" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/onboarding\?new=1$/);
  await createOrganization(page, `Bravo ${run}`);
}

test("the organization switcher works with the keyboard alone", async ({ page }) => {
  const run = Math.random().toString(36).slice(2, 8);
  await twoOrganizations(page, run);

  const trigger = page.getByRole("button", { name: "Switch organization" });
  const menu = page.getByRole("menu");

  // Enter opens on the first item; arrows move; Escape closes and gives focus back.
  await trigger.focus();
  await page.keyboard.press("Enter");
  await expect(menu.getByRole("menuitem", { name: `Alpha ${run}` })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: `Bravo ${run}` })).toBeFocused();
  await screenshot(page, "org-switcher-desktop");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(trigger).toBeFocused();

  // Typeahead jumps to the item that starts with the letter typed (one search per opening:
  // letters typed within a second make one word); Enter switches to the item in focus.
  await page.keyboard.press("ArrowDown");
  await expect(menu).toBeVisible();
  await page.keyboard.press("n");
  await expect(menu.getByRole("menuitem", { name: "New organization" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu.getByRole("menuitem", { name: `Alpha ${run}` })).toBeFocused();
  await page.keyboard.press("b");
  await expect(menu.getByRole("menuitem", { name: `Bravo ${run}` })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(menu.getByRole("menuitem", { name: `Alpha ${run}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(page.getByTestId("active-org")).toHaveText(`Alpha ${run}`);

  // The choice is kept in the session.
  await page.reload();
  await expect(page.getByTestId("active-org")).toHaveText(`Alpha ${run}`);
});

test("on a 390 px phone the navigation is a sheet and the switcher works in it by keyboard", async ({
  page,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await twoOrganizations(page, run);
  await page.setViewportSize(PHONE);

  // The sidebar is gone; a menu button opens the navigation as a modal sheet.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  const openNav = page.getByRole("button", { name: "Open navigation" });
  await openNav.focus();
  await page.keyboard.press("Enter");
  const sheet = page.getByRole("dialog", { name: "Navigation" });
  await expect(sheet).toBeVisible();
  // Focus starts on the sheet's first control (the switcher; links are skipped), and Tab stays inside.
  const trigger = sheet.getByRole("button", { name: "Switch organization" });
  await expect(trigger).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(sheet.getByRole("link", { name: "Breakwater home" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(trigger).toBeFocused();

  // The menu opens over the sheet; Escape closes only the menu.
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: `Alpha ${run}` })).toBeFocused();
  await screenshot(page, "org-switcher-phone");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(sheet).toBeVisible();
  await expect(trigger).toBeFocused();

  // Arrow to Alpha and switch.
  await page.keyboard.press("Enter");
  await expect(menu.getByRole("menuitem", { name: `Alpha ${run}` })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(sheet.getByTestId("active-org")).toHaveText(`Alpha ${run}`);

  // Escape closes the sheet and focus returns to the menu button.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(openNav).toBeFocused();

  // A page link in the sheet navigates and closes it.
  await page.keyboard.press("Enter");
  await expect(sheet).toBeVisible();
  await sheet.getByRole("link", { name: "Webhooks" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
