import { expect, refused, test } from "./fixtures";
import { createOrganization, signUp, uniqueEmail } from "./helpers";

// Another organization's project, and one that does not exist, answer 404 on purpose.
test.use({ allowedConsoleErrors: refused(/\/projects\/proj_[0-9a-f]{24}/) });

test("a project is visible in its organization and not found for another organization", async ({
  browser,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  const projectName = `checkout-api-${run}`;

  // User A: sign up, create an organization and a project through the UI.
  const contextA = await browser.newContext();
  const a = await contextA.newPage();
  await signUp(a, "Alice Anders", uniqueEmail("alice"));
  await createOrganization(a, `Acme ${run}`);
  await expect(a.getByText("No projects yet")).toBeVisible();

  await a.getByRole("link", { name: "New project" }).first().click();
  await expect(a).toHaveURL(/\/projects\/new$/);
  await a.getByLabel("Project name").fill(projectName);
  await a.getByLabel(/Hard deny/).check();
  await a.getByLabel("Daily").fill("25");
  await a.getByRole("button", { name: "Create project" }).click();
  await expect(a).toHaveURL(/\/projects\/proj_[0-9a-f]{24}$/);
  const projectUrl = a.url();
  await expect(a.getByRole("heading", { name: projectName })).toBeVisible();
  await expect(a.getByText("$25.00")).toBeVisible();

  // A key is shown once, in full, in the SDK's format.
  await a.getByRole("button", { name: "Create key" }).click();
  await a.getByLabel("Key name").fill("production");
  await a.getByRole("button", { name: "Create key" }).click();
  await expect(a.getByTestId("new-key").locator("code")).toHaveText(/^sk_proj_[0-9a-f]{64}$/);
  await expect(a.getByRole("cell", { name: "production" })).toBeVisible();

  // The project is listed and opens from the list.
  await a.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" }).click();
  await expect(a).toHaveURL(/\/projects$/);
  await a.getByRole("link", { name: projectName }).click();
  await expect(a).toHaveURL(projectUrl);
  await expect(a.getByRole("heading", { name: projectName })).toBeVisible();

  // User B, another browser context: own organization, then A's project URL → not found.
  const contextB = await browser.newContext();
  const b = await contextB.newPage();
  await signUp(b, "Bob Brandt", uniqueEmail("bob"));
  await createOrganization(b, `Globex ${run}`);
  await expect(b.getByText(projectName)).toHaveCount(0);

  const response = await b.goto(projectUrl);
  expect(response?.status()).toBe(404);
  await expect(b.getByRole("heading", { name: "Project not found" })).toBeVisible();
  await expect(b.getByText(projectName)).toHaveCount(0);

  // A nonexistent project id looks exactly the same.
  const missing = await b.goto("/projects/proj_000000000000000000000000");
  expect(missing?.status()).toBe(404);
  await expect(b.getByRole("heading", { name: "Project not found" })).toBeVisible();

  await contextA.close();
  await contextB.close();
});
