import { expect, test } from "./fixtures";
import { createOrganization, createProject, PHONE, signUp, uniqueEmail } from "./helpers";
import { budgetCheck, createKeyOnPage, fitsWidth, ingestRunCall } from "./wire-helpers";

test("runs page: hierarchy, Stop makes the next check run_stopped, Resume allows it again, ?run= deep link", async ({
  page,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Rhea Runs", uniqueEmail("runs"));
  await createOrganization(page, `Runners ${run}`);
  await createProject(page, `agents-${run}`);
  const projectId = page.url().split("/").pop()!;

  const tabs = page.getByRole("navigation", { name: "Project" });
  await tabs.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/runs$`));
  await expect(page.getByRole("heading", { name: "No agent runs yet", exact: true })).toBeVisible();
  await page.goto(`/projects/${projectId}`);
  const apiKey = await createKeyOnPage(page);

  const parent = `planner-${run}`;
  const child = `researcher-${run}`;
  await ingestRunCall(request, apiKey, { id: parent, name: "Trip planner" });
  await ingestRunCall(request, apiKey, { id: child, parent, velocityFlags: ["repeat_size"] });

  await page.goto(`/projects/${projectId}/runs`);
  const table = page.getByRole("table", { name: "Agent runs" });
  const rows = table.getByTestId("run-row");
  await expect(rows).toHaveCount(2);
  // The child is listed under its parent, flagged for its velocity.
  await expect(rows.nth(0)).toHaveAttribute("data-run-id", parent);
  await expect(rows.nth(1)).toHaveAttribute("data-run-id", child);
  const childRow = table.locator(`[data-run-id="${child}"]`);
  await expect(childRow).toContainText("Repeat size");
  await expect(childRow).toContainText("Running");
  await expect(table.locator(`[data-run-id="${parent}"]`)).toContainText("Trip planner");

  expect(await budgetCheck(request, apiKey, { agentRunId: child })).toMatchObject({ allowed: true });

  await test.step("Stop asks for confirmation and a reason; the next check for the run is run_stopped", async () => {
    await childRow.getByRole("button", { name: `Stop run ${child}`, exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Stop this run?" });
    await dialog.getByRole("textbox", { name: "Reason", exact: true }).fill("e2e_runaway");
    await dialog.getByRole("button", { name: "Stop run", exact: true }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(childRow).toContainText("Stopped");
    await expect
      .poll(async () => budgetCheck(request, apiKey, { agentRunId: child }), {
        timeout: 1_000,
        intervals: [50],
      })
      .toMatchObject({
        allowed: false,
        mode: "hard_deny",
        denied_by_period: "run_stopped",
        remaining_budget: 0,
        run_control: { version: "1", action: "terminate", agent_run_id: child, reason: "e2e_runaway" },
      });
    // Other runs are unaffected.
    const other = await budgetCheck(request, apiKey, { agentRunId: parent });
    expect(other.allowed).toBe(true);
    expect(other).not.toHaveProperty("run_control");
  });

  await test.step("a ?run= link opens and highlights the run", async () => {
    await page.goto(`/projects/${projectId}/runs?run=${encodeURIComponent(child)}`);
    const selected = page.getByTestId("selected-run");
    await expect(selected).toContainText(child);
    await expect(selected).toContainText("Stopped: e2e_runaway");
    await expect(table.locator(`[data-run-id="${child}"]`)).toHaveAttribute("aria-current", "true");
    await page.screenshot({ path: "e2e/screenshots/runs-desktop.png", fullPage: true });
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: "e2e/screenshots/runs-phone.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step("Resume makes the next check allowed again", async () => {
    await table
      .locator(`[data-run-id="${child}"]`)
      .getByRole("button", { name: `Resume run ${child}`, exact: true })
      .click();
    await expect(table.locator(`[data-run-id="${child}"]`)).toContainText("Running");
    await expect
      .poll(async () => (await budgetCheck(request, apiKey, { agentRunId: child })).allowed, {
        timeout: 1_000,
        intervals: [50],
      })
      .toBe(true);
    const after = await budgetCheck(request, apiKey, { agentRunId: child });
    expect(after).not.toHaveProperty("run_control");
  });
});
