import type { Browser, Page } from "@playwright/test";
import { createOperator } from "./cli";
import { expect, test } from "./fixtures";
import { createProjectWithKey, ingestFailover, reportBreaker } from "./fleet-helpers";
import { createOrganization, PASSWORD, PHONE, signUp, uniqueEmail } from "./helpers";

/**
 * A walk through every page as the three people who use the dashboard — an organization's owner,
 * a viewer of it, and the installation's operator who belongs to no organization — loaded fresh at
 * 390 px and widened to 1360 px. Every page must render its heading with no console error or uncaught
 * error (the fixture fails the test on any: React's hydration mismatches included), must not
 * scroll sideways on a phone (wide tables scroll inside themselves), and is kept as a screenshot
 * under e2e/screenshots/walk-<who>-<page>-<width>.png for people to look at.
 */

// The walk runs by itself (its own Playwright project, after the rest); the operator's pages, which
// need nothing of the owner's, walk on the second worker beside the owner's and the viewer's.
test.describe.configure({ mode: "parallel", timeout: 480_000 });

const DESKTOP = { width: 1360, height: 900 } as const;

interface Stop {
  /** File-name part of the screenshot. */
  name: string;
  path: string;
  /** The page's main heading (exact text or pattern). */
  heading: string | RegExp;
}

async function signIn(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/sign-in$/);
}

/**
 * Loads each stop fresh on a 390 px phone — the narrow layout (navigation sheet, stacked cards) is
 * the one most likely to differ — checks it, then widens the same page to 1360 px; both widths are
 * kept as screenshots. One load per page keeps the walk inside the suite's time on 2 cores.
 */
async function walk(browser: Browser, who: string, storage: string, stops: Stop[]) {
  const context = await browser.newContext({ storageState: JSON.parse(storage), viewport: PHONE });
  const page = await context.newPage();
  for (const stop of stops) {
    await test.step(`${who} · ${stop.path}`, async () => {
      await page.setViewportSize(PHONE);
      const res = await page.goto(stop.path);
      expect(res?.status(), `${stop.path} answers`).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }).first()).toHaveText(stop.heading, {
        timeout: 20_000,
      });
      // Whatever was still loading has loaded (skeletons and spinners are role=status).
      await expect(page.locator('main [role="status"][aria-label^="Loading"]')).toHaveCount(0, {
        timeout: 20_000,
      });
      // The document must not scroll sideways; name what sticks out when it does (an element
      // inside a sideways-scrolling box is that box's business, not the page's).
      const overflow = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const over = document.documentElement.scrollWidth - width;
        if (over <= 0) return null;
        const culprits: string[] = [];
        for (const el of Array.from(document.querySelectorAll("main *"))) {
          const r = el.getBoundingClientRect();
          if (r.right <= width + 1 || r.width === 0) continue;
          const parent = el.parentElement;
          if (parent && parent.getBoundingClientRect().right > width + 1) continue;
          if (parent && getComputedStyle(parent).overflowX !== "visible") continue;
          culprits.push(
            `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> ${Math.round(r.right - width)} px`,
          );
        }
        return `${over} px: ${culprits.slice(0, 5).join("; ")}`;
      });
      expect.soft(overflow, `${stop.path} scrolls sideways at 390 px`).toBeNull();
      await page.screenshot({ path: `e2e/screenshots/walk-${who}-${stop.name}-390.png`, fullPage: true });
      await page.setViewportSize(DESKTOP);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await page.screenshot({ path: `e2e/screenshots/walk-${who}-${stop.name}-1360.png`, fullPage: true });
    });
  }
  await context.close();
}

test("a walk through every page as an owner and as a viewer of the organization, at 1360 and 390 px", async ({
  page,
  browser,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  const orgName = `Walk ${run}`;
  const projectName = `walk-${run}`;

  // The owner: an organization, a project with a key, a little fleet and usage to show.
  await page.setViewportSize(DESKTOP);
  await signUp(page, "Wanda Walker", uniqueEmail("walk-owner"));
  await createOrganization(page, orgName);
  const project = await createProjectWithKey(page, projectName);
  await reportBreaker(request, project, { provider: "openai", instance: "walk-1", state: "closed" });
  await reportBreaker(request, project, { provider: "anthropic", instance: "walk-1", state: "closed" });
  await ingestFailover(request, project, {
    instance: "walk-1",
    requested: ["openai", "gpt-5.5"],
    served: ["anthropic", "claude-sonnet-4-5"],
  });

  // The viewer joins through an invitation.
  await page.goto("/members");
  await page.getByRole("button", { name: "Invite member", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a member" });
  const viewerEmail = uniqueEmail("walk-viewer");
  await dialog.getByRole("textbox", { name: "Email", exact: true }).fill(viewerEmail);
  await dialog.getByRole("combobox", { name: "Role", exact: true }).click();
  await page.getByRole("listbox").getByRole("option", { name: "Viewer", exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Create invitation", exact: true }).click();
  const created = page.getByRole("dialog", { name: "Invitation created" });
  const link = (await created.getByTestId("invite-link").textContent()) ?? "";
  await created.getByRole("button", { name: "Done", exact: true }).click();
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(new URL(link).pathname);
  await viewer.getByRole("textbox", { name: "Name", exact: true }).fill("Victor Viewer");
  await viewer.locator("form").getByLabel("Password", { exact: true }).fill(PASSWORD);
  await viewer.getByRole("button", { name: "Create account and join", exact: true }).click();
  await expect(viewer).toHaveURL(/\/projects$/);
  await expect(viewer.getByTestId("active-org")).toHaveText(orgName);
  const viewerStorage = JSON.stringify(await viewerContext.storageState());
  await viewerContext.close();

  const p = `/projects/${project.id}`;
  // A project page's heading is its name, followed by its budget mode's badge.
  const projectHeading = new RegExp(`^${projectName}`);
  const tenantPages: Stop[] = [
    { name: "projects", path: "/projects", heading: "Projects" },
    { name: "project", path: p, heading: projectHeading },
    { name: "project-usage", path: `${p}/usage`, heading: projectHeading },
    { name: "project-runs", path: `${p}/runs`, heading: projectHeading },
    { name: "project-settings", path: `${p}/settings`, heading: projectHeading },
    { name: "usage", path: "/usage", heading: "Usage" },
    { name: "usage-24h", path: "/usage?range=24h", heading: "Usage" },
    { name: "fleet", path: "/fleet", heading: "Fleet" },
    { name: "fleet-incidents", path: "/fleet/incidents", heading: "Incidents" },
    { name: "fleet-provider", path: `/fleet/${project.id}/openai`, heading: /openai/i },
    { name: "webhooks", path: "/webhooks", heading: "Webhooks" },
    { name: "webhook-events", path: "/webhooks/events", heading: "Webhooks" },
    { name: "webhook-messages", path: "/webhooks/messages", heading: "Webhooks" },
    { name: "members", path: "/members", heading: "Members" },
    { name: "audit", path: "/audit", heading: /^(Audit log|Admins only)$/ },
    { name: "api-access", path: "/settings/api-access", heading: "API access" },
  ];
  const ownerStorage = JSON.stringify(await page.context().storageState());
  await walk(browser, "owner", ownerStorage, [
    ...tenantPages,
    { name: "project-new", path: "/projects/new", heading: "New project" },
    // The same document for every role (api-access.spec.ts reads it as an admin too): once.
    { name: "api-reference", path: "/settings/api-access/reference", heading: "API reference" },
  ]);
  await walk(browser, "viewer", viewerStorage, tenantPages);
});

test("a walk through every operator page as an operator in no organization, at 1360 and 390 px", async ({
  browser,
}) => {
  // The operator: made by the CLI, in no organization.
  const operatorEmail = uniqueEmail("walk-operator");
  createOperator(operatorEmail, "Otto Operator");
  const operatorContext = await browser.newContext();
  const operator = await operatorContext.newPage();
  await signIn(operator, operatorEmail);
  await expect(operator).toHaveURL(/\/plans$/);
  const operatorStorage = JSON.stringify(await operatorContext.storageState());
  await operatorContext.close();
  await walk(browser, "operator", operatorStorage, [
    { name: "plans", path: "/plans", heading: "Plans" },
    { name: "plan-team", path: "/plans/team", heading: /^(Plans|Team)$/ },
    { name: "organizations", path: "/plans/organizations", heading: "Organizations" },
    { name: "prices", path: "/plans/prices", heading: "Prices" },
    { name: "prices-unpriced", path: "/plans/prices/unpriced", heading: /^(Prices|Unpriced models)$/ },
    { name: "prices-explain", path: "/plans/prices/explain", heading: /^(Prices|Why this hint)$/ },
    { name: "prices-new", path: "/plans/prices/new", heading: /^(Prices|Add a price card)$/ },
    { name: "operators", path: "/plans/operators", heading: "Operators" },
  ]);
});
