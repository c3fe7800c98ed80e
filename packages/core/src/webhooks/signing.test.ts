import { Webhook } from "svix";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook, webhookHeaders } from "./signing";

describe("Standard Webhooks signing", () => {
  it("produces headers svix's Webhook.verify accepts, and rejects a tampered body", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: "circuit_breaker_opened", data: { a: 1 } });
    const headers = webhookHeaders([secret], "evt_1", Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("signs exactly as svix's Webhook.sign does", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: "circuit_breaker_opened", data: { text: "é ✓ \u0000" } });
    const ts = 1_765_000_000;
    expect(signWebhook(secret, "evt_3", ts, body)).toBe(
      new Webhook(secret).sign("evt_3", new Date(ts * 1000), body),
    );
    // A bare base64 key (no whsec_ prefix) too.
    const bare = secret.slice("whsec_".length);
    expect(signWebhook(bare, "evt_3", ts, body)).toBe(
      new Webhook(bare).sign("evt_3", new Date(ts * 1000), body),
    );
  });

  it("signs with both secrets during a rotation", () => {
    const [oldS, newS] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = "{}";
    const headers = webhookHeaders([newS, oldS], "evt_2", Math.floor(Date.now() / 1000), body);
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(oldS).verify(body, headers)).toEqual({});
    expect(new Webhook(newS).verify(body, headers)).toEqual({});
  });
});
