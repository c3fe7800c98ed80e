import { describe, expect, it } from "vitest";
import { authErrorMessage, safeNext } from "./auth-errors";

describe("auth form helpers", () => {
  it("says plainly that the password or email is wrong", () => {
    expect(authErrorMessage({ code: "INVALID_EMAIL_OR_PASSWORD", status: 401 })).toBe(
      "Wrong email or password.",
    );
    expect(authErrorMessage({ status: 429 })).toMatch(/Too many attempts/);
  });

  it("never follows an off-site next parameter", () => {
    expect(safeNext("/projects/proj_1")).toBe("/projects/proj_1");
    expect(safeNext("//evil.example")).toBe("/");
    expect(safeNext("https://evil.example")).toBe("/");
    expect(safeNext(undefined)).toBe("/");
  });
});
