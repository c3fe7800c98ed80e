import { randomBytes } from "node:crypto";
import { ConfigError, parseConfig } from "@breakwater/config";
import { describe, expect, it } from "vitest";
import { isSealed, openSecret, SecretUnreadableError, sealedUnderCurrentKey, sealSecret } from "./secret-box";

const k1 = randomBytes(32).toString("hex");
const k2 = randomBytes(32).toString("base64");
const cfg = (env: Record<string, string>) => parseConfig({ NODE_ENV: "test", ...env });

describe("secret box", () => {
  it("seals as v1:<kid>:<iv>:<ct>:<tag> and opens only with the key and the same context", () => {
    const c = cfg({ SECRETS_ENCRYPTION_KEY: k1 });
    const sealed = sealSecret(c, "whsec_c2VjcmV0", "row-1");
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    expect(sealed).not.toContain("c2VjcmV0");
    expect(sealSecret(c, "whsec_c2VjcmV0", "row-1")).not.toBe(sealed); // fresh IV each time
    expect(openSecret(c, sealed, "row-1")).toBe("whsec_c2VjcmV0");
    expect(() => openSecret(c, sealed, "row-2")).toThrow(SecretUnreadableError);
    const tampered = sealed.replace(
      /:([\w-])([\w-]*):([\w-]{22})$/,
      (_, a, b, t) => `:${a === "A" ? "B" : "A"}${b}:${t}`,
    );
    expect(() => openSecret(c, tampered, "row-1")).toThrow(/tampered/);
    expect(() => openSecret(cfg({ SECRETS_ENCRYPTION_KEY: k2 }), sealed, "row-1")).toThrow(
      /neither SECRETS_ENCRYPTION_KEY nor in SECRETS_ENCRYPTION_OLD_KEYS/,
    );
  });

  it("rotates: the new key seals, the old keys still open", () => {
    const before = cfg({ SECRETS_ENCRYPTION_KEY: k1 });
    const sealed = sealSecret(before, "whsec_b2xk", "row");
    const after = cfg({ SECRETS_ENCRYPTION_KEY: k2, SECRETS_ENCRYPTION_OLD_KEYS: `${k1}` });
    expect(openSecret(after, sealed, "row")).toBe("whsec_b2xk");
    expect(sealedUnderCurrentKey(after, sealed)).toBe(false);
    const resealed = sealSecret(after, "whsec_b2xk", "row");
    expect(sealedUnderCurrentKey(after, resealed)).toBe(true);
    expect(resealed.split(":")[1]).not.toBe(sealed.split(":")[1]);
  });

  it("plain text from before encryption reads as is (until the seed step re-seals it)", () => {
    const c = cfg({});
    expect(isSealed("whsec_abc")).toBe(false);
    expect(openSecret(c, "whsec_abc", "row")).toBe("whsec_abc");
  });

  it("a bad key is one line naming the variable; production requires a key where secrets are used", () => {
    expect(() => cfg({ SECRETS_ENCRYPTION_KEY: "short" })).toThrow(/SECRETS_ENCRYPTION_KEY/);
    expect(() => cfg({ SECRETS_ENCRYPTION_OLD_KEYS: `${k1},nope` })).toThrow(/SECRETS_ENCRYPTION_OLD_KEYS/);
    const prod = parseConfig({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) });
    expect(() => sealSecret(prod, "s", "row")).toThrow(ConfigError);
    expect(() => sealSecret(prod, "s", "row")).toThrow(/SECRETS_ENCRYPTION_KEY is required in production/);
  });
});
