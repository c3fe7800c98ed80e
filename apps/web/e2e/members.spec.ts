import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, refused, test } from "./fixtures";
import { createOrganization, createProject, PHONE, screenshot, signUp, uniqueEmail } from "./helpers";

// The refusals this spec provokes on purpose (the page shows them as form errors).
test.use({
  allowedConsoleErrors: refused("member.invite", "member.remove", "member.changeRole"),
});

/**
 * Members, invitations and the audit log against the production build: an owner invites, the
 * invitee joins through the link in a fresh browser, is made a viewer, and the audit log shows it.
 */

const LAST_OWNER = "An organization needs at least one owner: make another member an owner first.";

const memberRow = (page: Page, email: string) =>
  page.getByRole("table", { name: "Members" }).locator(`[data-testid="member-row"][data-email="${email}"]`);

/** Picks `option` in the Radix Select named `name` inside `scope`, and waits for the list to close. */
async function choose(page: Page, scope: Locator, name: string, option: string) {
  await scope.getByRole("combobox", { name, exact: true }).click();
  await page.getByRole("listbox").getByRole("option", { name: option, exact: true }).click();
  await expect(page.getByRole("listbox")).toHaveCount(0);
}

/** A write procedure called directly with the page's session: the HTTP status and tRPC error code. */
async function callWrite(request: APIRequestContext, path: string, input: unknown) {
  const res = await request.post(`/api/trpc/${path}`, {
    headers: { "content-type": "application/json" },
    data: { json: input },
  });
  const body = (await res.json()) as { error?: { json?: { data?: { code?: string } } } };
  return { status: res.status(), code: body.error?.json?.data?.code };
}

test("an owner invites, the invitee joins through the link, becomes a viewer; all of it audited", async ({
  browser,
}) => {
  const run = Math.random().toString(36).slice(2, 8);
  const orgName = `Members ${run}`;
  const projectName = `api-${run}`;
  const ownerEmail = uniqueEmail("olga");
  const inviteeEmail = uniqueEmail("ivan");

  const ownerCtx = await browser.newContext();
  const owner = await ownerCtx.newPage();
  await signUp(owner, "Olga Owner", ownerEmail);
  await createOrganization(owner, orgName);
  await createProject(owner, projectName);

  await owner
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Members", exact: true })
    .click();
  await expect(owner).toHaveURL(/\/members$/);
  await expect(memberRow(owner, ownerEmail)).toBeVisible();

  // Bad input is refused beside the field, by the server.
  await owner.getByRole("button", { name: "Invite member", exact: true }).click();
  const dialog = owner.getByRole("dialog", { name: "Invite a member" });
  await dialog.getByRole("textbox", { name: "Email", exact: true }).fill("not-an-email");
  await dialog.getByRole("button", { name: "Create invitation", exact: true }).click();
  await expect(dialog.getByTestId("invite-email-error")).toHaveText("Enter a valid email address");
  await dialog.getByRole("textbox", { name: "Email", exact: true }).fill(ownerEmail);
  await dialog.getByRole("button", { name: "Create invitation", exact: true }).click();
  await expect(dialog.getByTestId("invite-email-error")).toHaveText(
    `${ownerEmail} is already a member of this organization`,
  );

  // The invitation: a link to copy, shown once.
  await dialog.getByRole("textbox", { name: "Email", exact: true }).fill(inviteeEmail);
  await choose(owner, dialog, "Role", "Member");
  await dialog.getByRole("button", { name: "Create invitation", exact: true }).click();
  const created = owner.getByRole("dialog", { name: "Invitation created" });
  await expect(created.getByRole("button", { name: "Copy link", exact: true })).toBeVisible();
  const link = (await created.getByTestId("invite-link").textContent()) ?? "";
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await created.getByRole("button", { name: "Done", exact: true }).click();
  await expect(owner.getByRole("dialog")).toHaveCount(0);
  const pending = owner.getByRole("table", { name: "Pending invitations" });
  await expect(pending.locator(`[data-testid="invitation-row"][data-email="${inviteeEmail}"]`)).toBeVisible();

  // A second invitation to the same address is refused while the first is pending.
  await owner.getByRole("button", { name: "Invite member", exact: true }).click();
  await dialog.getByRole("textbox", { name: "Email", exact: true }).fill(inviteeEmail);
  await dialog.getByRole("button", { name: "Create invitation", exact: true }).click();
  await expect(dialog.getByTestId("invite-email-error")).toContainText("already has a pending invitation");
  await owner.keyboard.press("Escape");
  await expect(owner.getByRole("dialog")).toHaveCount(0);
  await screenshot(owner, "members-desktop");

  // The invitee, in a fresh browser: signs up through the link and lands in the organization.
  const inviteeCtx = await browser.newContext();
  const invitee = await inviteeCtx.newPage();
  await invitee.goto(new URL(link).pathname);
  await expect(invitee.getByRole("heading", { name: `Join ${orgName}`, exact: true })).toBeVisible();
  await expect(invitee.getByRole("textbox", { name: "Email", exact: true })).toHaveValue(inviteeEmail);
  await screenshot(invitee, "invite-desktop");
  await invitee.setViewportSize(PHONE);
  await screenshot(invitee, "invite-phone");
  await invitee.setViewportSize({ width: 1280, height: 800 });
  await invitee.getByRole("textbox", { name: "Name", exact: true }).fill("Ivan Invitee");
  await invitee.locator("form").getByLabel("Password", { exact: true }).fill("correct horse battery staple");
  await invitee.getByRole("button", { name: "Create account and join", exact: true }).click();
  await expect(invitee).toHaveURL(/\/projects$/);
  await expect(invitee.getByTestId("active-org")).toHaveText(orgName);
  await expect(invitee.getByRole("link", { name: projectName, exact: true })).toBeVisible();

  // The used link now says so.
  const usedCtx = await browser.newContext();
  const used = await usedCtx.newPage();
  await used.goto(new URL(link).pathname);
  await expect(
    used.getByRole("heading", { name: "This invitation has already been used", exact: true }),
  ).toBeVisible();
  await usedCtx.close();

  // A link opened by another signed-in account says whose it is; revoked, it says so to anyone.
  const otherEmail = uniqueEmail("zed");
  await owner.getByRole("button", { name: "Invite member", exact: true }).click();
  await dialog.getByRole("textbox", { name: "Email", exact: true }).fill(otherEmail);
  await choose(owner, dialog, "Role", "Viewer");
  await dialog.getByRole("button", { name: "Create invitation", exact: true }).click();
  const otherLink = (await created.getByTestId("invite-link").textContent()) ?? "";
  await created.getByRole("button", { name: "Done", exact: true }).click();
  await expect(owner.getByRole("dialog")).toHaveCount(0);
  await owner.goto(new URL(otherLink).pathname);
  await expect(
    owner.getByRole("heading", { name: "This invitation is for someone else", exact: true }),
  ).toBeVisible();
  await owner.goto("/members");
  await owner.getByRole("button", { name: `Revoke invitation for ${otherEmail}`, exact: true }).click();
  await owner
    .getByRole("alertdialog")
    .getByRole("button", { name: "Revoke invitation", exact: true })
    .click();
  await expect(owner.getByRole("alertdialog")).toHaveCount(0);
  await expect(pending.locator(`[data-testid="invitation-row"][data-email="${otherEmail}"]`)).toHaveCount(0);
  await owner.goto(new URL(otherLink).pathname);
  await expect(
    owner.getByRole("heading", { name: "This invitation was revoked", exact: true }),
  ).toBeVisible();

  // The owner makes the invitee a viewer.
  await owner.goto("/members");
  await expect(memberRow(owner, inviteeEmail)).toBeVisible();
  await choose(owner, memberRow(owner, inviteeEmail), `Role of ${inviteeEmail}`, "Viewer");
  await expect(
    memberRow(owner, inviteeEmail).getByRole("combobox", { name: `Role of ${inviteeEmail}`, exact: true }),
  ).toHaveText("Viewer");

  // The viewer reads projects and usage, sees no edit controls, and a write is FORBIDDEN.
  await invitee.goto("/projects");
  await expect(invitee.getByRole("link", { name: projectName, exact: true })).toBeVisible();
  await expect(invitee.getByRole("link", { name: "New project" })).toHaveCount(0);
  await invitee.getByRole("link", { name: projectName, exact: true }).click();
  await expect(invitee.getByRole("heading", { level: 1, name: projectName })).toBeVisible();
  await expect(invitee.getByRole("button", { name: "Create key" })).toHaveCount(0);
  const projectId = invitee.url().split("/").at(-1)!;
  expect(await callWrite(invitee.request, "apiKey.create", { projectId, name: "sneaky" })).toEqual({
    status: 403,
    code: "FORBIDDEN",
  });
  const usage = await invitee.goto("/usage");
  expect(usage?.status()).toBe(200);
  await expect(invitee).toHaveURL(/\/usage$/);
  await invitee.goto("/members");
  await expect(memberRow(invitee, ownerEmail)).toBeVisible();
  await expect(invitee.getByRole("button", { name: "Invite member" })).toHaveCount(0);
  await expect(invitee.getByRole("combobox")).toHaveCount(0);
  await expect(invitee.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
  await invitee.goto("/audit");
  await expect(invitee.getByRole("heading", { name: "Admins only", exact: true })).toBeVisible();
  expect(
    await callWrite(invitee.request, "member.remove", { memberId: "mem_000000000000000000000000" }),
  ).toEqual({
    status: 403,
    code: "FORBIDDEN",
  });

  // The last owner can neither leave nor step down.
  await owner.getByRole("button", { name: `Remove ${ownerEmail}`, exact: true }).click();
  await owner.getByRole("alertdialog").getByRole("button", { name: "Leave", exact: true }).click();
  await expect(owner.getByRole("alertdialog")).toHaveCount(0);
  await expect(owner.getByTestId("form-error")).toHaveText(LAST_OWNER);
  await choose(owner, memberRow(owner, ownerEmail), `Role of ${ownerEmail}`, "Admin");
  await expect(owner.getByTestId("form-error")).toHaveText(LAST_OWNER);
  await owner.reload();
  await expect(
    memberRow(owner, ownerEmail).getByRole("combobox", { name: `Role of ${ownerEmail}`, exact: true }),
  ).toHaveText("Owner");
  await owner.setViewportSize(PHONE);
  await screenshot(owner, "members-phone");
  await owner.setViewportSize({ width: 1280, height: 800 });

  // The audit log: invite, accept and role change, with actor and before/after; filtered by kind.
  await owner
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Audit log", exact: true })
    .click();
  await expect(owner).toHaveURL(/\/audit$/);
  const events = owner.getByRole("table", { name: "Audit events" });
  const row = (action: string) => events.locator(`[data-testid="audit-row"][data-action="${action}"]`);
  await expect(row("invitation.create")).toHaveCount(2);
  for (const r of await row("invitation.create").all()) await expect(r).toContainText("Olga Owner");
  await expect(row("invitation.revoke")).toContainText("Olga Owner");
  await expect(row("invitation.accept")).toContainText("Ivan Invitee");
  await expect(row("member.update_role")).toContainText("Olga Owner");
  await screenshot(owner, "audit-desktop");

  await choose(owner, owner.getByRole("group", { name: "Filters" }), "Kind", "Member");
  await expect(row("invitation.create")).toHaveCount(0);
  await expect(events.getByTestId("audit-row")).toHaveCount(1);
  await row("member.update_role").getByRole("button", { name: "Details", exact: false }).click();
  const sheet = owner.getByRole("dialog", { name: "member.update_role" });
  const roleDiff = sheet.locator('[data-testid="diff-row"][data-field="role"]');
  await expect(roleDiff).toHaveAttribute("data-changed", "true");
  await expect(roleDiff.getByRole("cell")).toHaveText(["role", "member", "viewer"]);
  await expect(sheet.locator('[data-testid="diff-row"][data-field="email"]').getByRole("cell")).toHaveText([
    "email",
    inviteeEmail,
    inviteeEmail,
  ]);
  await owner.keyboard.press("Escape");
  await expect(owner.getByRole("dialog")).toHaveCount(0);

  await choose(owner, owner.getByRole("group", { name: "Filters" }), "Kind", "Invitation");
  await expect(events.getByTestId("audit-row")).toHaveCount(4);
  await expect(row("member.update_role")).toHaveCount(0);
  await owner.setViewportSize(PHONE);
  await screenshot(owner, "audit-phone");

  await ownerCtx.close();
  await inviteeCtx.close();
});
