import { connect } from "node:net";
import { newId, revokeApiKey } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK,
  checkBody,
  createTenant,
  type Harness,
  INGEST,
  INVALID_KEY,
  post,
  READ_ONLY,
  startHarness,
  type Tenant,
  within,
} from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("API-key authentication", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant(h);
  });

  it("unknown, malformed and missing keys are one 401", async () => {
    for (const key of [null, "sk_proj_short", `sk_proj_${"a".repeat(64)}`, `SK_PROJ_${"a".repeat(64)}`]) {
      const r = await post(h, CHECK, checkBody(), key);
      expect(r.status).toBe(401);
      expect(r.text).toBe(INVALID_KEY);
    }
    const wrongScheme = await post(h, CHECK, checkBody(), null, {
      headers: { authorization: `Basic ${t.key}` },
    });
    expect(wrongScheme.text).toBe(INVALID_KEY);
  });

  it("a live management key is no SDK key: the documented 401 envelope on every SDK route", async () => {
    const { createManagementKey } = await import("@breakwater/core");
    const { managementKey } = await createManagementKey(
      { ...h.sys, organizationId: t.organizationId },
      { name: "automation", scope: "write" },
    );
    for (const path of [CHECK, INGEST]) {
      const r = await post(h, path, checkBody(), managementKey);
      expect(r.status).toBe(401);
      expect(r.text).toBe(INVALID_KEY);
    }
  });

  it("an expired key is a 401", async () => {
    const { createApiKey } = await import("@breakwater/core");
    const expired = await createApiKey(h.sys, {
      projectId: t.projectId,
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await post(h, CHECK, checkBody(), expired.apiKey)).text).toBe(INVALID_KEY);
  });

  it("a revoked key stops working within a second, although it was cached", async () => {
    const { createApiKey } = await import("@breakwater/core");
    const k = await createApiKey(h.sys, { projectId: t.projectId });
    expect((await post(h, CHECK, checkBody(), k.apiKey)).status).toBe(200);
    await revokeApiKey(h.sys, { keyId: k.key.id });
    const elapsed = await within(
      1000,
      async () => (await post(h, CHECK, checkBody(), k.apiKey)).status === 401,
    );
    expect(elapsed).toBeLessThan(1000);
  });

  it("records last_used_at off the hot path", async () => {
    const before = await h.db.apiKey.findUniqueOrThrow({ where: { id: t.keyId } });
    expect(before.lastUsedAt).toBeNull();
    await post(h, CHECK, checkBody(), t.key);
    // The request itself never writes it; the batched flush (every 5 s) does.
    await within(8000, async () => {
      const row = await h.db.apiKey.findUniqueOrThrow({ where: { id: t.keyId } });
      return row.lastUsedAt !== null;
    });
  }, 15_000);
});

describe("read-only keys", () => {
  it("a read-only key is refused with the exact SDK body", async () => {
    const t = await createTenant(h);
    const r = await post(h, CHECK, checkBody(), t.readOnlyKey);
    expect(r.status, CHECK).toBe(403);
    expect(r.text).toBe(READ_ONLY);
  });
});

describe("admission limit", () => {
  it("answers 429 with Retry-After past the project's per-second rate", async () => {
    const t = await createTenant(h);
    await h.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: t.organizationId,
        projectId: t.projectId,
        featureKey: "admission_rate_per_second",
        value: 3,
        reason: "test",
      },
    });
    const results = await Promise.all(Array.from({ length: 12 }, () => post(h, CHECK, checkBody(), t.key)));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.text).toBe('{"detail":"Rate limit exceeded","retry_after":1}');
  });
});

describe("unauthenticated load", () => {
  /** Sends only the headers of a POST declaring `length` body bytes; resolves with the first answer bytes. */
  function headersOnly(path: string, length: number, authorization?: string): Promise<string> {
    const { hostname, port } = new URL(h.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error("no answer before the body was sent"));
      }, 3000);
      let answer = "";
      socket.on("data", (c) => {
        answer += c.toString("latin1");
        if (answer.includes("\r\n\r\n")) {
          clearTimeout(timer);
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${
          authorization ? `Authorization: ${authorization}\r\n` : ""
        }\r\n`,
      );
    });
  }

  it("a keyless or unknown-key request is a 401 before its 10 MiB body is sent", async () => {
    const tenMiB = 10 * 1024 * 1024;
    for (const authorization of [undefined, `Bearer sk_proj_${"c".repeat(64)}`, "Basic abc"]) {
      const answer = await headersOnly(INGEST, tenMiB, authorization);
      expect(answer.startsWith("HTTP/1.1 401 "), String(authorization)).toBe(true);
    }
  });

  it("a flood of made-up well-formed keys is refused and never reaches the key cache", async () => {
    const before = h.runtime.ctx.auth.cache.size;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        post(h, CHECK, checkBody(), `sk_proj_${i.toString(16).padStart(64, "d")}`),
      ),
    );
    for (const a of answers) expect(a.text).toBe(INVALID_KEY);
    expect(h.runtime.ctx.auth.cache.size).toBe(before);
  });
});
