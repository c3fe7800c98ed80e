import { describe, expect, it } from "vitest";
import { authErrorMessage, safeNext } from "./auth-errors";

describe("auth form helpers", () => {
  it("says plainly that the password or email is wrong", () => {
    expect(authErrorMessage({ code: "INVALID_EMAIL_OR_PASSWORD", status: 401 })).toBe(
      "Wrong email or password.",
    );
    expect(authErrorMessage({ status: 429 })).toMatch(/Too many attempts/);
  });

  it("tells a rate-limited user how long to wait", () => {
    expect(authErrorMessage({ status: 429 }, 42)).toBe("Too many attempts, try again in 42 s.");
    expect(authErrorMessage({ status: 429 }, 0.2)).toBe("Too many attempts, try again in 1 s.");
    expect(authErrorMessage({ status: 429 }, null)).toBe("Too many attempts. Wait a minute and try again.");
  });

  it("never follows an off-site next parameter", () => {
    expect(safeNext("/projects/proj_1")).toBe("/projects/proj_1");
    expect(safeNext("//evil.example")).toBe("/");
    expect(safeNext("https://evil.example")).toBe("/");
    expect(safeNext(undefined)).toBe("/");
  });

  it("follows paths on this origin, with their query and fragment", () => {
    expect(safeNext("/")).toBe("/");
    expect(safeNext("/projects/proj_1?tab=keys&q=a%20b#usage")).toBe(
      "/projects/proj_1?tab=keys&q=a%20b#usage",
    );
    expect(safeNext("/webhooks?url=https%3A%2F%2Freceiver.example%2Fhook")).toBe(
      "/webhooks?url=https%3A%2F%2Freceiver.example%2Fhook",
    );
    expect(safeNext(["/fleet", "//evil.example"])).toBe("/fleet");
    expect(safeNext("/a/../fleet")).toBe("/fleet");
  });

  // The usual open-redirect bypasses: each would leave the origin in some browser or parser.
  const BYPASSES = [
    "//evil.example",
    "///evil.example",
    "////evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "%2F%2Fevil.example",
    "/%09/evil.example",
    "/%0A/evil.example",
    "/%0d/evil.example",
    "/%00/evil.example",
    "/%E0%A4%A", // not decodable
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\t\\evil.example",
    "/ /evil.example",
    "/\u00a0/evil.example",
    "/\u3000/evil.example",
    " //evil.example",
    "\t//evil.example",
    "https:evil.example",
    "https:/evil.example",
    "https://evil.example",
    "HTTPS://evil.example/path",
    "http://localhost:3000.evil.example/",
    "//localhost@evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "evil.example",
    "./evil.example",
    "../evil.example",
    "?next=//evil.example",
    "#//evil.example",
    "",
    `/${"a".repeat(5000)}`,
  ];

  it.each(BYPASSES)("refuses %j", (next) => {
    expect(safeNext(next)).toBe("/");
  });
});
