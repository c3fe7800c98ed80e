import { expect, refused, test } from "./fixtures";
import {
  createProjectWithKey,
  ingestFailover,
  ingestFailovers,
  reportBreaker,
  screenshots,
} from "./fleet-helpers";
import { createOrganization, signUp, uniqueEmail } from "./helpers";

// The web server runs with BREAKER_STALE_SECONDS=10 (playwright.config.ts): a silent instance turns
// stale within the test.

// Another organization's provider page answers 404, on purpose.
test.use({ allowedConsoleErrors: refused(/\/fleet\/proj_[0-9a-f]{24}\/openai/) });

test("a breaker report changes an open overview within 2 s: Down, Recovering, Healthy; a silent instance greys out", async ({
  page,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Olga On-call", uniqueEmail("oncall"));
  await createOrganization(page, `Fleet ${run}`);
  const project = await createProjectWithKey(page, `checkout-${run}`);

  await page.goto("/fleet");
  await expect(page.getByRole("heading", { name: "No SDK instances have reported yet" })).toBeVisible();

  await reportBreaker(request, project, { provider: "openai", instance: "web-1", state: "closed" });
  await reportBreaker(request, project, { provider: "anthropic", instance: "web-2", state: "closed" });
  const cell = (provider: string) =>
    page.locator(`[data-testid="fleet-cell"][data-project="${project.id}"][data-provider="${provider}"]`);
  await expect(cell("openai")).toHaveAttribute("data-status", "Healthy");
  await expect(page.locator('[data-live="streaming"]')).toBeVisible();

  // Measured from the wire request to the visible change, with no reload.
  const started = Date.now();
  await reportBreaker(request, project, { provider: "openai", instance: "web-1", state: "open" });
  await expect(cell("openai")).toHaveAttribute("data-status", "Down", { timeout: 2_000 });
  const elapsed = Date.now() - started;
  test.info().annotations.push({ type: "report → Down on the page", description: `${elapsed} ms` });
  console.log(`report → Down on the page: ${elapsed} ms`);
  expect(elapsed).toBeLessThan(2_000);
  await expect(cell("openai")).toContainText("1 of 1 instance Down");

  await reportBreaker(request, project, { provider: "openai", instance: "web-1", state: "half_open" });
  await expect(cell("openai")).toHaveAttribute("data-status", "Recovering", { timeout: 2_000 });
  await reportBreaker(request, project, { provider: "openai", instance: "web-1", state: "closed" });
  await expect(cell("openai")).toHaveAttribute("data-status", "Healthy", { timeout: 2_000 });
  await expect(cell("openai")).toContainText("1 of 1 instance Healthy");

  // web-2 never reports again: after 10 s it is stale — left out of status, counted apart.
  await expect(cell("anthropic")).toHaveAttribute("data-stale", "1", { timeout: 20_000 });
  await expect(cell("anthropic")).toHaveAttribute("data-status", "Unknown");
  await expect(cell("anthropic").getByTestId("stale-count")).toHaveText("1 stale");
  await screenshots(page, "fleet-overview");
});

test("the provider page shows the episode, timeline and failover feed, and says when a long Down is an unprobed breaker", async ({
  page,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Pavel Primary", uniqueEmail("primary"));
  await createOrganization(page, `Unprobed ${run}`);
  const project = await createProjectWithKey(page, `search-${run}`);

  // web-1's openai breaker opened two hours ago and has stayed open; anthropic serves its calls.
  const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
  await reportBreaker(request, project, {
    provider: "openai",
    instance: "web-1",
    state: "closed",
    at: new Date(twoHoursAgo.getTime() - 60_000),
  });
  await reportBreaker(request, project, {
    provider: "openai",
    instance: "web-1",
    state: "open",
    at: twoHoursAgo,
  });
  await reportBreaker(request, project, { provider: "anthropic", instance: "web-1", state: "closed" });
  await ingestFailover(request, project, {
    instance: "web-1",
    requested: ["openai", "gpt-4o"],
    served: ["anthropic", "claude-sonnet-4-5"],
    latencyMs: 850,
  });
  // web-1 keeps sending its heartbeat (still open) as an SDK does, so it never turns stale here.
  await reportBreaker(request, project, { provider: "openai", instance: "web-1", state: "open" });
  const heartbeat = setInterval(() => {
    void reportBreaker(request, project, { provider: "openai", instance: "web-1", state: "open" }).catch(
      () => undefined,
    );
  }, 2_000);
  try {
    await page.goto("/fleet");
    const cell = page.locator(
      `[data-testid="fleet-cell"][data-project="${project.id}"][data-provider="openai"]`,
    );
    await expect(cell).toHaveAttribute("data-status", "Down");
    await expect(cell.getByTestId("unprobed-note")).toHaveText(
      "Down 2 h, fallback serving — breaker not re-probed",
    );
    await screenshots(page, "fleet-unprobed");

    await cell.click();
    await expect(page).toHaveURL(new RegExp(`/fleet/${project.id}/openai$`));
    await expect(page.getByRole("heading", { name: `openai in search-${run}` })).toBeVisible();
    await expect(page.getByRole("note")).toContainText("Down 2 h, fallback serving — breaker not re-probed");

    const episode = page.getByRole("list", { name: "Open episodes" }).getByTestId("open-episode");
    await expect(episode).toHaveCount(1);
    await expect(episode).toContainText("web-1");
    await expect(episode.getByTestId("episode-duration")).toHaveText(/^2 h( \d+ min)?$/);

    const timeline = page.getByRole("figure", { name: "Transition timeline" });
    await expect(timeline).toBeVisible();
    const transitions = page.getByRole("list", { name: "Transitions" }).getByTestId("transition");
    await expect(transitions).toHaveCount(2);
    // Newest first: Healthy → Down two hours ago, then the first report.
    await expect(transitions.first()).toContainText(/Healthy\s*→\s*Down/);
    await expect(transitions.last()).toContainText(/First report\s*→\s*Healthy/);

    const feed = page.getByRole("table", { name: "Failover feed" }).getByTestId("failover");
    await expect(feed).toHaveCount(1);
    await expect(feed).toContainText("openai/gpt-4o");
    await expect(feed).toContainText("anthropic/claude-sonnet-4-5");
    await expect(feed).toContainText("circuit_open");
    await expect(feed).toContainText("850 ms");
    await expect(page.getByText("Calls saved by a fallback (24 h)")).toBeVisible();
    // web-1 in the instance table: Down, flagged as a breaker nobody re-probed.
    const instance = page.getByRole("table", { name: "Instances" }).getByTestId("instance-row");
    await expect(instance).toHaveCount(1);
    await expect(instance).toHaveAttribute("data-instance", "web-1");
    await expect(instance).toContainText("Down");
    await expect(instance.getByTestId("not-reprobed")).toHaveText("not re-probed");
    await expect(page.getByRole("list", { name: "Daily uptime" }).getByRole("listitem")).toHaveCount(90);

    // The 7-day range reloads the timeline; the episode is still there.
    await page.getByRole("button", { name: "7 d", exact: true }).click();
    await expect(page.getByRole("button", { name: "7 d", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(transitions).toHaveCount(2);
    await expect(page.getByTestId("provider-status")).toHaveAttribute("data-status", "Down");
    await screenshots(page, "fleet-provider");
  } finally {
    clearInterval(heartbeat);
  }
});

test("the provider page reads its instances and failovers a page at a time, filters by status, and stays live", async ({
  page,
  request,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  await signUp(page, "Paula Pager", uniqueEmail("pager"));
  await createOrganization(page, `Paged ${run}`);
  const project = await createProjectWithKey(page, `fleet-${run}`);

  // 60 instances, five of them Down, heartbeating as SDKs do (the stale limit here is 10 s), 15 at
  // a time: the plan admits 50 requests a second per project.
  const pods = Array.from({ length: 60 }, (_, i) => `pod-${String(i).padStart(2, "0")}`);
  const down = new Set(pods.filter((_, i) => i % 12 === 0));
  const beat = async () => {
    for (let k = 0; k < pods.length; k += 15) {
      await Promise.all(
        pods.slice(k, k + 15).map((instance) =>
          reportBreaker(request, project, {
            provider: "openai",
            instance,
            state: down.has(instance) ? "open" : "closed",
          }),
        ),
      );
      await new Promise((r) => setTimeout(r, 400));
    }
  };
  await beat();
  // …and one that reports once and then goes silent: stale within the test.
  await reportBreaker(request, project, { provider: "openai", instance: "zz-gone", state: "closed" });
  // 30 failovers of the last minutes: more than one page of the feed.
  const now = Date.now();
  await ingestFailovers(
    request,
    project,
    Array.from({ length: 30 }, (_, k) => ({
      instance: pods[k % pods.length] as string,
      requested: ["openai", "gpt-4o"] as [string, string],
      served: ["anthropic", "claude-sonnet-4-5"] as [string, string],
      at: new Date(now - (k + 1) * 1000),
      latencyMs: 700 + k,
    })),
  );
  let beating = false;
  const heartbeat = setInterval(() => {
    if (beating) return;
    beating = true;
    void beat()
      .catch(() => undefined)
      .finally(() => {
        beating = false;
      });
  }, 3_000);
  try {
    await page.goto(`/fleet/${project.id}/openai`);
    await expect(page.getByTestId("provider-status")).toHaveAttribute("data-status", "Down");

    const instances = page.getByRole("table", { name: "Instances" }).getByTestId("instance-row");
    await expect(instances).toHaveCount(50);
    await expect(instances.first()).toHaveAttribute("data-instance", "pod-00");
    await expect(instances.nth(49)).toHaveAttribute("data-instance", "pod-49");
    await page.getByRole("button", { name: "Load more instances" }).click();
    await expect(instances).toHaveCount(61);
    await expect(instances.last()).toHaveAttribute("data-instance", "zz-gone");
    await expect(page.getByTestId("instances").getByText("End of list")).toBeVisible();
    await expect(page.getByRole("button", { name: "Load more instances" })).toHaveCount(0);

    const feed = page.getByRole("table", { name: "Failover feed" }).getByTestId("failover");
    await expect(feed).toHaveCount(25);
    await expect(feed.first()).toContainText("700 ms");
    await page.getByRole("button", { name: "Load older failovers" }).click();
    await expect(feed).toHaveCount(30);
    await expect(feed.last()).toContainText("729 ms");
    await expect(page.getByTestId("failovers").getByText("End of list")).toBeVisible();

    // Down only: the five Down instances, from their own index, not the healthy pages.
    await page.getByRole("combobox", { name: "Status", exact: true }).click();
    await page.getByRole("option", { name: "Down", exact: true }).click();
    await expect(instances).toHaveCount(5);
    await expect(instances.first()).toHaveAttribute("data-instance", "pod-00");
    for (const row of await instances.all()) await expect(row).toContainText("Down");
    await screenshots(page, "fleet-instances-down");

    // A pushed change refetches the filtered list in place: pod-01 opens and joins it, no reload.
    down.add("pod-01");
    await reportBreaker(request, project, { provider: "openai", instance: "pod-01", state: "open" });
    await expect(instances).toHaveCount(6, { timeout: 5_000 });
    await expect(instances.nth(1)).toHaveAttribute("data-instance", "pod-01");

    // The silent one turns stale: the Stale filter lists it, greyed.
    await page.getByRole("combobox", { name: "Status", exact: true }).click();
    await page.getByRole("option", { name: "Stale", exact: true }).click();
    await expect(instances).toHaveCount(1, { timeout: 20_000 });
    await expect(instances).toHaveAttribute("data-instance", "zz-gone");
    await expect(instances).toHaveAttribute("data-stale", "true");

    // Recovering: none, and the empty state says so.
    await page.getByRole("combobox", { name: "Status", exact: true }).click();
    await page.getByRole("option", { name: "Recovering", exact: true }).click();
    await expect(page.getByRole("heading", { name: "No recovering instance" })).toBeVisible();

    await page.getByRole("combobox", { name: "Status", exact: true }).click();
    await page.getByRole("option", { name: "All", exact: true }).click();
    // Back to All: the two pages read before are kept (and read again), zz-gone greyed at the end.
    await expect(instances).toHaveCount(61);
    await expect(instances.last()).toHaveAttribute("data-stale", "true");
    await screenshots(page, "fleet-instances");
  } finally {
    clearInterval(heartbeat);
  }
});

test("another organization's project is never shown", async ({ browser, request }) => {
  const run = Math.random().toString(36).slice(2, 8);
  const a = await (await browser.newContext()).newPage();
  await signUp(a, "Alice Anders", uniqueEmail("alice"));
  await createOrganization(a, `Acme ${run}`);
  const project = await createProjectWithKey(a, `billing-${run}`);
  await reportBreaker(request, project, { provider: "openai", instance: "a-1", state: "open" });

  const b = await (await browser.newContext()).newPage();
  await signUp(b, "Bob Brandt", uniqueEmail("bob"));
  await createOrganization(b, `Globex ${run}`);
  await b.goto("/fleet");
  await expect(b.locator('[data-live="streaming"]')).toBeVisible();
  await expect(b.getByRole("heading", { name: "No SDK instances have reported yet" })).toBeVisible();

  // A's next report is pushed to A's organization only: B's page stays empty.
  await a.goto("/fleet");
  await expect(a.locator('[data-live="streaming"]')).toBeVisible();
  await reportBreaker(request, project, { provider: "anthropic", instance: "a-1", state: "open" });
  await expect(
    a.locator(`[data-testid="fleet-cell"][data-project="${project.id}"][data-provider="anthropic"]`),
  ).toHaveAttribute("data-status", "Down");
  await expect(b.getByText(`billing-${run}`)).toHaveCount(0);
  await expect(b.getByTestId("fleet-cell")).toHaveCount(0);

  const res = await b.goto(`/fleet/${project.id}/openai`);
  expect(res?.status()).toBe(404);
  await expect(b.getByRole("heading", { name: "Project not found" })).toBeVisible();
  await screenshots(b, "fleet-other-org");
});
