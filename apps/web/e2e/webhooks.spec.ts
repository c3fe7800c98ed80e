import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createOrganization, createProject, PHONE, signUp, uniqueEmail } from "./helpers";
import { type ReceivedMessage, startWebhookLab, type WebhookLab } from "./webhook-lab";

/**
 * Webhook pages against the production build, with the real worker and a local receiver that
 * verifies signatures with svix's Webhook.verify (apps/worker/test/e2e-webhook-lab.ts).
 */

let lab: WebhookLab;
let receiverUrl: string;

test.beforeAll(async () => {
  lab = await startWebhookLab();
  receiverUrl = lab.receiverUrl;
});

test.afterAll(async () => {
  await lab?.stop();
});

const control = (request: APIRequestContext, what: string, body?: unknown) =>
  lab.control(request, what, body);
const receivedBy = async (request: APIRequestContext) =>
  (await control(request, "/received")) as ReceivedMessage[];

async function shoot(page: Page, name: string) {
  const size = page.viewportSize();
  await page.screenshot({ path: `e2e/screenshots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `e2e/screenshots/${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** Chooses `option` in the kit Select named `name`, then waits for its listbox to close. */
async function choose(page: Page, name: string, option: string) {
  await page.getByRole("combobox", { name, exact: true }).click();
  await page.getByRole("listbox").getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

async function breakerReport(
  request: APIRequestContext,
  projectId: string,
  apiKey: string,
  state: "open" | "closed",
  reportedAt: Date,
) {
  const res = await request.post(`/api/v1/projects/${projectId}/providers/breaker-reports`, {
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    data: {
      provider: "openai",
      state,
      failure_count: state === "open" ? 5 : 0,
      success_count: state === "open" ? 0 : 3,
      reported_at: reportedAt.toISOString(),
      sdk_instance_id: "e2e-instance-1",
    },
  });
  expect(res.status(), await res.text()).toBe(202);
}

test("webhook pages: add, test, wire event, retry, replay, rotate, viewer", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const run = Math.random().toString(36).slice(2, 8);
  const orgName = `Hooks ${run}`;
  const hookUrl = `${receiverUrl}/hooks/breakwater`;

  // An admin (owner) on a plan with breaker webhooks, a project and an SDK key.
  await signUp(page, "Ada Admin", uniqueEmail("hooks-admin"));
  await createOrganization(page, orgName);
  await control(request, "/plan", { organizationName: orgName, plan: "team" });
  await createProject(page, `svc-${run}`);
  const projectId = page.url().split("/").pop()!;
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByLabel("Key name").fill("sdk");
  await page.getByRole("button", { name: "Create key" }).click();
  const apiKey = (await page.getByTestId("new-key").locator("code").textContent())!;
  expect(apiKey).toMatch(/^sk_proj_[0-9a-f]{64}$/);

  await test.step("an admin adds an endpoint in the UI and a test event is accepted", async () => {
    await page.goto("/webhooks");
    await expect(page.getByTestId("endpoint-allowance")).toHaveText(/0 of 10 endpoints/);
    await expect(page.getByText("No endpoints yet")).toBeVisible();
    await shoot(page, "webhooks-empty");

    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(hookUrl);
    await dialog.getByRole("textbox", { name: "Description" }).fill("on-call pager");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);

    const secretBox = page.getByTestId("signing-secret");
    await expect(secretBox.locator("code").first()).toHaveText(/^whsec_/);
    const secret = (await secretBox.locator("code").first().textContent())!;
    await control(request, "/secrets", { secrets: [secret] });
    await expect(page.getByTestId("endpoint-allowance")).toHaveText(/1 of 10 endpoints/);
    await shoot(page, "webhooks-secret");
    await secretBox.getByRole("button", { name: "Done" }).click();

    await page.getByRole("list", { name: "Webhook endpoints" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/webhooks\/endpoints\/whe_/);
    await expect(page.getByTestId("endpoint-url")).toHaveText(hookUrl);
    await page.getByRole("button", { name: "Send test event" }).click();
    const result = page.getByTestId("test-result");
    await expect(result.getByText("Accepted")).toBeVisible();
    await expect(result).toContainText("Status code 200");
    await expect(result.getByTestId("attempt-row")).toHaveCount(1);
    await expect(result.getByTestId("attempt-row")).toContainText('{"ok":true}');
    const tests = (await receivedBy(request)).filter((r) => r.type === "circuit_breaker_opened");
    expect(tests).toHaveLength(1);
    expect(tests[0]).toMatchObject({ verified: true, answered: 200 });
    await shoot(page, "webhooks-endpoint");
  });

  const t0 = Date.now();
  await test.step("a breaker report on the wire API reaches the receiver as circuit_breaker_opened and shows in the log", async () => {
    const before = (await receivedBy(request)).length;
    await breakerReport(request, projectId, apiKey, "open", new Date(t0));
    await expect
      .poll(
        async () =>
          (await receivedBy(request))
            .slice(before)
            .filter((r) => r.type === "circuit_breaker_opened" && r.verified && r.answered === 200).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.goto("/webhooks/messages");
    await choose(page, "Status", "Delivered");
    await choose(page, "Event type", "circuit_breaker_opened");
    const rows = page.getByTestId("message-row");
    await expect(rows.filter({ hasNotText: "test" })).toHaveCount(1);
    await expect(rows.filter({ hasNotText: "test" })).toContainText("Delivered");
  });

  let closedId = "";
  await test.step("with the receiver answering 500 once, the log shows the failed attempt, then the retry succeeding", async () => {
    await control(request, "/fail-next", { count: 1 });
    await breakerReport(request, projectId, apiKey, "closed", new Date(t0 + 1_000));
    await expect
      .poll(
        async () =>
          (await receivedBy(request)).filter((r) => r.type === "circuit_breaker_closed" && r.answered === 200)
            .length,
        { timeout: 45_000 },
      )
      .toBe(1);
    const closed = (await receivedBy(request)).filter((r) => r.type === "circuit_breaker_closed");
    expect(closed.map((r) => r.answered)).toEqual([500, 200]);
    expect(new Set(closed.map((r) => r.webhookId)).size).toBe(1);
    closedId = closed[0]!.webhookId;

    await page.goto("/webhooks/messages");
    await choose(page, "Event type", "circuit_breaker_closed");
    await page.getByRole("button", { name: `Open ${closedId}` }).click();
    const sheet = page.getByRole("dialog");
    await expect(sheet.getByTestId("webhook-id")).toHaveText(closedId);
    const attempts = sheet.getByTestId("attempt-row");
    await expect(attempts).toHaveCount(2);
    await expect(attempts.nth(0)).toContainText("Failed");
    await expect(attempts.nth(0)).toContainText("500");
    await expect(attempts.nth(1)).toContainText("Succeeded");
    await expect(attempts.nth(1)).toContainText("200");
    await expect(sheet.getByTestId("message-status")).toHaveText("Delivered");
    await shoot(page, "webhooks-message");
  });

  await test.step("replay delivers again with the same webhook-id", async () => {
    const sheet = page.getByRole("dialog");
    await sheet.getByRole("button", { name: "Replay", exact: true }).click();
    await expect(sheet.getByRole("status").filter({ hasText: "Replayed" })).toContainText("accepted");
    await expect(sheet.getByTestId("attempt-row")).toHaveCount(3);
    await expect(sheet.getByTestId("attempt-row").nth(2)).toContainText("replay");
    const again = (await receivedBy(request)).filter((r) => r.webhookId === closedId && r.answered === 200);
    expect(again).toHaveLength(2);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await shoot(page, "webhooks-messages");
  });

  let endpointPath = "";
  await test.step("rotating the secret keeps deliveries verifiable", async () => {
    await page.goto("/webhooks");
    await page.getByRole("list", { name: "Webhook endpoints" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/webhooks\/endpoints\/whe_/);
    endpointPath = new URL(page.url()).pathname;
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const oldSecret = (await page.getByTestId("revealed-secret").locator("code").textContent())!;
    expect(oldSecret).toMatch(/^whsec_/);

    await page.getByRole("button", { name: "Rotate secret" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Rotate the signing secret?" });
    await expect(confirm).toContainText("24 hours");
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    const box = page.getByTestId("signing-secret");
    await expect(box).toContainText("keeps signing until");
    const newSecret = (await box.locator("code").first().textContent())!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);

    // A receiver that already has the new secret verifies, and so does one still on the old one.
    for (const secrets of [[newSecret], [oldSecret]]) {
      await control(request, "/secrets", { secrets });
      const before = (await receivedBy(request)).length;
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect(page.getByTestId("test-result").getByText("Accepted")).toBeVisible();
      const latest = (await receivedBy(request)).slice(before);
      expect(latest).toHaveLength(1);
      expect(latest[0]).toMatchObject({ verified: true, answered: 200, signatures: 2 });
      // The next send replaces this result.
      await page.reload();
    }
  });

  await test.step("a viewer sees the log but no edit control, and gets FORBIDDEN from the procedures", async () => {
    const context = await browser.newContext();
    const viewer = await context.newPage();
    const email = uniqueEmail("hooks-viewer");
    await signUp(viewer, "Vic Viewer", email);
    await control(request, "/member", { email, organizationName: orgName, role: "viewer" });

    await viewer.goto("/webhooks");
    await expect(viewer.getByTestId("active-org")).toHaveText(orgName);
    const list = viewer.getByRole("list", { name: "Webhook endpoints" });
    await expect(list).toContainText(`${new URL(receiverUrl).origin}/••••••`);
    await expect(list).not.toContainText("/hooks/breakwater");
    await expect(viewer.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
    await shoot(viewer, "webhooks-viewer");

    await viewer.goto(endpointPath);
    await expect(viewer.getByTestId("endpoint-url")).toHaveText(`${new URL(receiverUrl).origin}/••••••`);
    for (const name of [
      "Send test event",
      "Rotate secret",
      "Reveal secret",
      "Delete endpoint",
      "Disable endpoint",
      "Save changes",
    ]) {
      await expect(viewer.getByRole("button", { name })).toHaveCount(0);
    }

    await viewer.goto("/webhooks/messages");
    await expect(viewer.getByTestId("message-row").first()).toBeVisible();
    await viewer.getByRole("button", { name: `Open ${closedId}` }).click();
    const sheet = viewer.getByRole("dialog");
    await expect(sheet.getByTestId("attempt-row")).toHaveCount(3);
    await expect(sheet.getByRole("button", { name: "Replay", exact: true })).toHaveCount(0);
    await expect(sheet.getByTestId("delivery")).not.toContainText("/hooks/breakwater");
    await shoot(viewer, "webhooks-viewer-message");

    const endpointId = decodeURIComponent(endpointPath.split("/").pop()!);
    const calls: [string, unknown][] = [
      ["webhooks.createEndpoint", { url: "http://127.0.0.1:9/x" }],
      ["webhooks.updateEndpoint", { endpointId, enabled: false }],
      ["webhooks.deleteEndpoint", { endpointId }],
      ["webhooks.rotateSecret", { endpointId }],
      ["webhooks.sendTest", { endpointId }],
      ["webhooks.replay", { eventId: closedId, endpointId }],
    ];
    for (const [procedure, input] of calls) {
      const res = await viewer.request.post(`/api/trpc/${procedure}`, { data: { json: input } });
      expect(res.status(), procedure).toBe(403);
      expect(JSON.stringify(await res.json()), procedure).toContain('"FORBIDDEN"');
    }
    const reveal = await viewer.request.get(
      `/api/trpc/webhooks.revealSecret?input=${encodeURIComponent(JSON.stringify({ json: { endpointId } }))}`,
    );
    expect(reveal.status()).toBe(403);
    await context.close();

    // Nothing the viewer tried changed the endpoint.
    await page.goto(endpointPath);
    await expect(page.getByTestId("endpoint-url")).toHaveText(hookUrl);
    await expect(page.getByRole("button", { name: "Disable endpoint" })).toBeVisible();
  });

  await test.step("the event catalogue shows each type's sample and schema", async () => {
    await page.goto("/webhooks/events");
    await expect(page.getByRole("heading", { name: "circuit_breaker_opened" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "circuit_breaker_closed" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "budget_threshold_crossed" })).toBeVisible();
    await shoot(page, "webhooks-events");
  });
});

test("a plan without breaker webhooks explains what it would deliver and who can change it", async ({
  page,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Fran Free", uniqueEmail("hooks-free"));
  await createOrganization(page, `Free hooks ${run}`);
  await page.goto("/webhooks");
  const notice = page.getByTestId("plan-notice");
  await expect(notice).toContainText("Breaker webhooks are not on the Free plan");
  await expect(notice).toContainText("circuit_breaker_opened");
  await expect(notice).toContainText("operator of this Breakwater installation");
  await expect(page.getByTestId("endpoint-allowance")).toHaveText("Your plan includes no webhook endpoints");
  await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  await shoot(page, "webhooks-free-plan");

  // The allowance is enforced by the procedure too, with a message that says why.
  const res = await page.request.post("/api/trpc/webhooks.createEndpoint", {
    data: { json: { url: "http://127.0.0.1:9/x" } },
  });
  expect(res.status()).toBe(412);
  expect(JSON.stringify(await res.json())).toContain("Your plan does not include webhook endpoints");
});
