import { chromium } from "@playwright/test";

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
const page = await ctx.newPage();
page.on("pageerror", (e) => console.log("pageerror", e.message));
const base = "http://127.0.0.1:3101";
const out = "/tmp/shots";
await page.goto(base + "/sign-in");
await page.screenshot({ path: `${out}/01-sign-in.png` });
await page.goto(base + "/sign-up");
await page.getByLabel("Name").fill("Dana Scully");
await page.getByLabel("Work email").fill(`dana-${Date.now()}@acme.test`);
await page.getByLabel("Password").fill("correct horse battery");
await page.getByRole("button", { name: "Create account" }).click();
await page.waitForURL(/onboarding/);
await page.screenshot({ path: `${out}/02-onboarding.png` });
await page.getByLabel("Organization name").fill("Acme Robotics");
await page.getByRole("button", { name: "Create organization" }).click();
await page.waitForURL(/projects$/);
await page.waitForTimeout(300);
await page.screenshot({ path: `${out}/03-projects-empty.png` });
await page.goto(base + "/projects/new");
await page.screenshot({ path: `${out}/04-new-project.png` });
await page.getByLabel("Project name").fill("checkout-api");
await page.getByLabel("Daily").fill("25");
await page.getByRole("button", { name: "Create project" }).click();
await page.waitForURL(/projects\/proj_/);
await page.getByRole("button", { name: "Create key" }).click();
await page.getByLabel("Key name").fill("production");
await page.getByRole("button", { name: "Create key" }).click();
await page.getByTestId("new-key").waitFor();
await page.screenshot({ path: `${out}/05-project.png`, fullPage: true });
await page.goto(base + "/projects");
await page.screenshot({ path: `${out}/06-projects.png` });
await page.goto(base + "/fleet");
await page.screenshot({ path: `${out}/07-fleet.png` });
await page.getByRole("button", { name: "Switch organization" }).click();
await page.screenshot({ path: `${out}/08-switcher.png` });
await page.goto(base + "/projects/proj_000000000000000000000000");
await page.screenshot({ path: `${out}/09-notfound.png` });
await page.goto(base + "/webhooks");
await page.screenshot({ path: `${out}/10-webhooks.png` });
await browser.close();
