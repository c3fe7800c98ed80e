import { type BrowserContext, test as base, type ConsoleMessage, expect } from "@playwright/test";

/**
 * Every spec imports `test` and `expect` from here, not from @playwright/test: a test fails when
 * any page it opened logged a console error or threw an uncaught error (React's hydration errors,
 * #418 and friends, are console errors in a production build). Pages of contexts a test makes
 * itself (`browser.newContext()`, `browser.newPage()`) are watched too.
 *
 * A spec that provokes a console error on purpose says which, e.g. Chromium's log line for a call
 * the API refuses (the refusal the page shows as a form error):
 *   test.use({ allowedConsoleErrors: refused("member.invite", "member.remove") });
 */

/** What the watched contexts reported during the current test (one test at a time per worker). */
const seen: string[] = [];
const watched = new WeakSet<BrowserContext>();

function explain(msg: ConsoleMessage): string {
  const where = msg.location().url || msg.page()?.url() || "";
  return `console.error${where ? ` at ${where}` : ""}: ${msg.text()}`;
}

function watch(context: BrowserContext): BrowserContext {
  if (watched.has(context)) return context;
  watched.add(context);
  context.on("console", (msg) => {
    if (msg.type() === "error") seen.push(explain(msg));
  });
  context.on("weberror", (err) => {
    seen.push(`uncaught error at ${err.page()?.url() ?? ""}: ${err.error().stack ?? err.error().message}`);
  });
  return context;
}

export const test = base.extend<
  { allowedConsoleErrors: RegExp | null; _consoleErrors: undefined },
  { _watchBrowser: undefined }
>({
  allowedConsoleErrors: [null, { option: true }],
  // The worker's browser: every context it makes from now on is watched, the test's own included.
  _watchBrowser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof browser.newContext>) =>
        watch(await newContext(...args));
      await use(undefined);
    },
    { scope: "worker", auto: true },
  ],
  _consoleErrors: [
    async ({ context, allowedConsoleErrors }, use) => {
      watch(context);
      seen.length = 0;
      await use(undefined);
      const errors = seen.splice(0).filter((e) => !allowedConsoleErrors?.test(e));
      expect(errors, "console errors or uncaught page errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Chromium's console line for a call or page answered with a 4xx (a refusal or a not-found page the
 * test expects): a tRPC procedure (`"budget.update"`), a path (`"/api/auth/sign-in/email"`) or a
 * path pattern (`/\/fleet\/proj_\w+\/openai/`). A 5xx, or a 4xx from anything else, is still an error.
 */
export function refused(...calls: (string | RegExp)[]): RegExp {
  const literal = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const urls = calls
    .map((c) =>
      c instanceof RegExp ? c.source : c.startsWith("/") ? literal(c) : `/api/trpc/${literal(c)}\\?batch=1`,
    )
    .join("|");
  return new RegExp(
    `^console\\.error at https?://[^/]+(?:${urls}): Failed to load resource: the server responded with a status of 4\\d\\d `,
  );
}
