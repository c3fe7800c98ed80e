import { spawnSync } from "node:child_process";
import path from "node:path";
import { createBreakwaterClient, unwrap } from "@breakwater/client";
import { bwRemote } from "./cli";
import { expect, test } from "./fixtures";
import { createOrganization, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";
import { type SdkApi, startSdkApi } from "./sdk-api";
import { budgetCheck, fitsWidth } from "./wire-helpers";

const DESKTOP = { width: 1360, height: 900 } as const;
const webDir = path.resolve(__dirname, "..");

/** Adds a signed-up user to an organization by name with a role (e2e/add-member.ts). */
function addMember(email: string, organizationName: string, role: "member") {
  const res = spawnSync(
    path.join(webDir, "..", "..", "node_modules", ".bin", "tsx"),
    [path.join(webDir, "e2e", "add-member.ts"), email, organizationName, role],
    { cwd: webDir, env: { ...process.env, LOG_LEVEL: "warn" }, encoding: "utf8" },
  );
  expect(res.status, res.stderr).toBe(0);
}

// The SDK API as deployments run it apart from the dashboard (its own port): the SDK key made
// over the management API is checked there.
let sdkApi: SdkApi;
test.beforeAll(async () => {
  sdkApi = await startSdkApi();
});
test.afterAll(async () => {
  await sdkApi?.stop();
});

test("an admin creates a management key in Settings → API access, automation uses it over HTTP, and revoking it ends that", async ({
  page,
  browser,
  baseURL,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  const orgName = `Automators ${run}`;
  await page.setViewportSize(DESKTOP);
  await signUp(page, "Ada Automation", uniqueEmail("api-access"));
  // A new organization is on the free plan (one project): automation makes that project below.
  await createOrganization(page, orgName);

  await page.getByRole("link", { name: "API access" }).click();
  await expect(page).toHaveURL(/\/settings\/api-access$/);
  await expect(page.getByRole("heading", { name: "API access" })).toBeVisible();
  await expect(page.getByText("No management keys yet")).toBeVisible();
  await screenshot(page, "api-access-empty-desktop");

  // Create: name, scope, expiry; the key is shown once.
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill("ci-deploys");
  await page.getByRole("combobox", { name: "Scope" }).click();
  await page.getByRole("option", { name: "Read & write" }).click();
  await page.getByRole("combobox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "In 90 days" }).click();
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-management-key").locator("code");
  await expect(shown).toHaveText(/^sk_mgmt_[0-9a-f]{64}$/);
  const mgmtKey = ((await shown.textContent()) ?? "").trim();
  const row = page.getByTestId("mgmt-key-ci-deploys");
  await expect(row.getByText("Read & write")).toBeVisible();
  await expect(row.getByText("Active")).toBeVisible();
  await expect(row).not.toContainText(mgmtKey);

  // Automation, with only HTTP and the generated client: a project and its SDK key; the SDK key
  // passes a budget check on the SDK API's own port; the CLI in remote mode lists the project.
  const bw = createBreakwaterClient({ baseUrl: baseURL!, token: mgmtKey });
  const project = unwrap(
    await bw.POST("/api/manage/v1/projects", {
      params: { header: { "Idempotency-Key": `e2e-${run}` } },
      body: { name: `from-ci-${run}`, limits: { monthly: 40 } },
    }),
  );
  expect(project).toMatchObject({ name: `from-ci-${run}`, limits: { monthly: 40 } });
  const key = unwrap(
    await bw.POST("/api/manage/v1/projects/{projectId}/api-keys", {
      params: { path: { projectId: project.id } },
      body: { name: "production" },
    }),
  );
  expect(key.key).toMatch(/^sk_proj_[0-9a-f]{64}$/);
  expect(await budgetCheck(page.request, key.key, { sdkUrl: sdkApi.url })).toMatchObject({ allowed: true });
  const listed = bwRemote(baseURL!, mgmtKey, "project", "list");
  expect(listed.status, listed.stderr).toBe(0);
  expect(listed.stdout).toMatch(
    new RegExp(`^${project.id}\\s+from-ci-${run}\\s+alert_only\\s+monthly \\$40$`, "m"),
  );

  // The list shows when the key was last used (written within seconds), and the key stays hidden.
  await page.getByTestId("new-management-key").getByRole("button", { name: "Done", exact: true }).click();
  await expect(page.getByTestId("new-management-key")).toHaveCount(0);
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("mgmt-key-ci-deploys").getByTestId("last-used").textContent();
      },
      { timeout: 20_000, intervals: [1_000] },
    )
    .not.toBe("Never");
  await screenshot(page, "api-access-desktop");

  // At 390 px the page does not scroll sideways (the table scrolls inside its card).
  await page.setViewportSize(PHONE);
  await expect(page.getByRole("heading", { name: "API access" })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, "api-access-phone");
  await page.setViewportSize(DESKTOP);

  // The reference page renders the published OpenAPI document: every group, each endpoint's
  // parameters, body and answers; at 390 px nothing scrolls sideways.
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/settings\/api-access\/reference$/);
  const reference = page.getByTestId("api-reference");
  for (const group of ["Projects", "Budgets", "API keys", "Operator"]) {
    await expect(reference.getByRole("heading", { name: group, exact: true })).toBeVisible();
  }
  const createProject = reference.getByTestId("operation-createProject");
  await createProject.getByRole("button", { name: /POST\s*\/api\/manage\/v1\/projects/ }).click();
  await expect(createProject.getByRole("heading", { name: /Request body/ })).toBeVisible();
  await expect(createProject.getByText("Idempotency-Key", { exact: true })).toBeVisible();
  await expect(createProject.getByRole("heading", { name: /Response 201/ })).toBeVisible();
  await reference.getByRole("tab", { name: "Errors" }).click();
  await expect(reference.getByRole("cell", { name: "urn:breakwater:problem:not-found" })).toBeVisible();
  await screenshot(page, "api-reference-desktop");
  await page.setViewportSize(PHONE);
  await expect(reference.getByRole("heading", { name: "Projects", exact: true })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, "api-reference-phone");
  await page.setViewportSize(DESKTOP);
  await page.getByRole("link", { name: "API access" }).first().click();
  await expect(page).toHaveURL(/\/settings\/api-access$/);

  // Revoke asks first; once confirmed, the key's next request is refused.
  await page.getByTestId("mgmt-key-ci-deploys").getByRole("button", { name: "Revoke", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Revoke “ci-deploys”?" });
  await expect(dialog).toContainText("401");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("mgmt-key-ci-deploys").getByText("Revoked")).toBeVisible();
  const after = await bw.GET("/api/manage/v1/projects");
  expect(after.response.status).toBe(401);
  expect(after.response.headers.get("content-type")).toBe("application/problem+json");
  expect(after.error).toMatchObject({ type: "urn:breakwater:problem:unauthorized" });

  // A member sees no keys and cannot make one.
  const memberEmail = uniqueEmail("api-access-member");
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signUp(member, "Mo Member", memberEmail);
  addMember(memberEmail, orgName, "member");
  await member.goto("/settings/api-access");
  await expect(member.getByTestId("api-access-denied")).toBeVisible();
  await expect(member.getByRole("button", { name: "Create key" })).toHaveCount(0);
  await memberContext.close();
});
