import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";

export const PASSWORD = "correct horse battery staple";

/** An address no other test (or earlier run) has used. */
export function uniqueEmail(who: string): string {
  return `${who}-${randomUUID().slice(0, 12)}@e2e.example.test`;
}

/** Signs up through the UI and lands on onboarding. */
export async function signUp(page: Page, name: string, email: string, password = PASSWORD) {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
}

/** Creates an organization from onboarding and lands on its (empty) projects page. */
export async function createOrganization(page: Page, name: string) {
  await page.getByLabel("Organization name").fill(name);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId("active-org")).toHaveText(name);
}

export const PHONE = { width: 390, height: 844 } as const;

/** Saves a full-page screenshot under e2e/screenshots/ (gitignored) for people to look at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** Creates a project through the UI (alert-only, $25 a day) and lands on its page. */
export async function createProject(page: Page, name: string) {
  await page.goto("/projects/new");
  await page.getByLabel("Project name").fill(name);
  await page.getByLabel("Daily").fill("25");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/proj_[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();
}
