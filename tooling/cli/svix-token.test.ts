import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mintSvixToken } from "./svix-token";

describe("mintSvixToken", () => {
  it("produces the header and claims svix-server documents, HS256-signed with the raw secret", () => {
    // svix-server's README shows a token with exactly this header and these claims (iat 1655140639,
    // exp 1970500639 = 3650 days later, nbf, iss, the default organization as sub).
    const now = new Date(1655140639 * 1000);
    const token = mintSvixToken("x", { now, ttlDays: 3650 });
    const [header, payload, signature] = token.split(".");
    expect(`${header}.${payload}`).toBe(
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpYXQiOjE2NTUxNDA2MzksImV4cCI6MTk3MDUwMDYzOSwibmJmIjoxNjU1MTQwNjM5LCJpc3MiOiJzdml4LXNlcnZlciIsInN1YiI6Im9yZ18yM3JiOFlkR3FNVDBxSXpwZ0d3ZFhmSGlyTXUifQ",
    );
    expect(signature).toBe(createHmac("sha256", "x").update(`${header}.${payload}`).digest("base64url"));
    expect(signature).not.toMatch(/[=+/]/);
  });

  it("changes with the secret", () => {
    const now = new Date(0);
    expect(mintSvixToken("a", { now })).not.toBe(mintSvixToken("b", { now }));
  });
});
