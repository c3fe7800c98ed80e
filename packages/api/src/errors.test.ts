import { DomainError, invalid, limitExceeded, notFound } from "@breakwater/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { trustedOrigins } from "./auth/create-auth";
import { toTRPCError } from "./errors";

describe("toTRPCError", () => {
  it("maps every domain code the dashboard can meet", () => {
    expect(toTRPCError(notFound("Project"))).toMatchObject({
      code: "NOT_FOUND",
      message: "Project not found",
    });
    expect(toTRPCError(new DomainError("FORBIDDEN", "no"))?.code).toBe("FORBIDDEN");
    expect(toTRPCError(new DomainError("CONFLICT", "taken"))?.code).toBe("CONFLICT");
    expect(toTRPCError(invalid("bad"))?.code).toBe("BAD_REQUEST");
    expect(toTRPCError(limitExceeded("Your plan allows 1 project"))).toMatchObject({
      code: "PRECONDITION_FAILED",
      message: "Your plan allows 1 project",
    });
  });

  it("turns a zod failure into BAD_REQUEST naming the field", () => {
    const err = z.object({ name: z.string().min(1, "Name is required") }).safeParse({ name: "" }).error;
    expect(toTRPCError(err)).toMatchObject({ code: "BAD_REQUEST", message: "name: Name is required" });
  });

  it("leaves unknown errors alone (they become a generic 500)", () => {
    expect(toTRPCError(new Error("connection refused at 10.0.0.3"))).toBeNull();
  });
});

describe("trustedOrigins", () => {
  it("trusts the public origin and its loopback twin", () => {
    expect(trustedOrigins({ PUBLIC_URL: "http://localhost:3000" }).sort()).toEqual([
      "http://127.0.0.1:3000",
      "http://localhost:3000",
    ]);
    expect(trustedOrigins({ PUBLIC_URL: "https://breakwater.example.com/" })).toEqual([
      "https://breakwater.example.com",
    ]);
  });
});
