import { expect, refused, test } from "./fixtures";
import { PASSWORD, signUp, uniqueEmail } from "./helpers";

// Wrong passwords and the rate limit, on purpose (the form says so).
test.use({ allowedConsoleErrors: refused("/api/auth/sign-in/email") });

test("a wrong password shows a clear error, the right one signs in", async ({ page }) => {
  const email = uniqueEmail("wrongpw");
  await signUp(page, "Wendy Wrong", email);
  await page.goto("/sign-out");
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByText(/error|exception|stack/i)).toHaveCount(0);

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // No organization yet: the dashboard sends the user to create one.
  await expect(page).toHaveURL(/\/onboarding$/);
});

test("an unknown account gets the same error as a wrong password", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByLabel("Password").fill("whatever-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password.");
});

test("a signed-out visitor is sent to sign-in and brought back afterwards", async ({ page }) => {
  const email = uniqueEmail("returning");
  await signUp(page, "Rita Return", email);
  await page.getByLabel("Organization name").fill(`Return ${Date.now()}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await page.goto("/sign-out");
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.goto("/usage");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fusage$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/usage$/);
  await expect(page.getByRole("heading", { name: "Usage", exact: true })).toBeVisible();
});

test("a rate-limited sign-in says how long to wait", async ({ page }) => {
  // The limit itself is proven against Redis in @breakwater/api's sign-in-limits test; here the
  // form's answer to a 429, without spending this address's real sign-in budget.
  await page.route("**/api/auth/sign-in/email", (route) =>
    route.fulfill({
      status: 429,
      headers: { "Content-Type": "application/json", "X-Retry-After": "37" },
      body: JSON.stringify({ message: "Too many requests. Please try again later." }),
    }),
  );
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(uniqueEmail("limited"));
  await page.getByLabel("Password").fill("whatever-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Too many attempts, try again in 37 s.");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
});

test("an off-site next parameter is not followed after sign-in", async ({ page }) => {
  const email = uniqueEmail("nextsafe");
  await signUp(page, "Nora Next", email);
  await page.goto("/sign-out");
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.goto(`/sign-in?next=${encodeURIComponent("/\\evil.example/landing")}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // "/" on this origin, which sends a user without an organization to onboarding.
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/onboarding$/);
});
