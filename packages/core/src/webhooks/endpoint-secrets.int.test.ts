import { randomBytes } from "node:crypto";
import { Webhook } from "svix";
import { afterAll, describe, expect, it } from "vitest";
import { systemCtx } from "../context";
import { seedProject, testDeps } from "../testing/fleet";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { openEndpointSecret, resealWebhookSecrets } from "./endpoint-secrets";
import { getWebhookEndpointSecret } from "./list-webhook-endpoints";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { webhookHeaders } from "./signing";

const key1 = randomBytes(32).toString("hex");
const key2 = randomBytes(32).toString("hex");
const deps = testDeps({ SECRETS_ENCRYPTION_KEY: key1 });
afterAll(() => deps.db.$disconnect());

const rawRow = async (id: string) =>
  (
    await deps.db.$queryRaw<{ secret: string; previous_secret: string | null }[]>`
      SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ${id}`
  )[0]!;

/** Whether `candidate`, used as a signing secret, produces signatures a receiver holding `real` accepts. */
function signsFor(candidate: string, real: string): boolean {
  const body = '{"type":"test"}';
  const ts = Math.floor(Date.now() / 1000);
  try {
    const headers = webhookHeaders([candidate], "msg_1", ts, body);
    new Webhook(real).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

describe("webhook secrets at rest", () => {
  it("the webhook_endpoints row holds no usable secret, current or previous", async () => {
    const { org } = await seedProject(deps, "team");
    const sys = systemCtx(deps);
    const { endpoint, secret } = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: "https://example.com/hook",
    });
    const row = await rawRow(endpoint.id);
    expect(row.secret).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(row.secret).not.toContain(secret.slice(6));
    expect(row.secret).not.toContain(Buffer.from(secret.slice(6), "base64").toString("hex"));
    expect(signsFor(row.secret, secret)).toBe(false);
    // What the dashboard and the sender read is the real secret.
    expect(
      (await getWebhookEndpointSecret(sys, { organizationId: org.id, endpointId: endpoint.id })).secret,
    ).toBe(secret);

    await rotateWebhookSecret(sys, { organizationId: org.id, endpointId: endpoint.id });
    const rotated = await rawRow(endpoint.id);
    expect(rotated.previous_secret).toMatch(/^v1:/);
    expect(rotated.previous_secret).not.toContain(secret.slice(6));
    expect(signsFor(rotated.previous_secret!, secret)).toBe(false);
    expect(openEndpointSecret(deps.config, endpoint.id, rotated.previous_secret!)).toBe(secret);
    // A sealed secret copied onto another endpoint's row does not open there.
    expect(() => openEndpointSecret(deps.config, "whe_other", rotated.secret)).toThrow(/tampered or moved/);
  });

  it("re-seals plain-text rows from before encryption and rows under an old key", async () => {
    const { org } = await seedProject(deps, "team");
    const sys = systemCtx(deps);
    const { endpoint, secret } = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: "https://example.com/hook",
    });
    // A row as an earlier version stored it.
    await deps.db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { secret, previousSecret: secret },
    });
    expect((await resealWebhookSecrets(deps)).unreadable).not.toContain(endpoint.id);
    const sealed = await rawRow(endpoint.id);
    expect(sealed.secret).toMatch(/^v1:/);
    expect(sealed.previous_secret).toMatch(/^v1:/);
    expect(openEndpointSecret(deps.config, endpoint.id, sealed.previous_secret!)).toBe(secret);
    // Already sealed under the current key: a second run leaves the row alone.
    await resealWebhookSecrets(deps);
    expect(await rawRow(endpoint.id)).toEqual(sealed);

    // Key rotation: key2 takes over, key1 stays as an old key until everything is re-sealed.
    const rotated = testDeps({ SECRETS_ENCRYPTION_KEY: key2, SECRETS_ENCRYPTION_OLD_KEYS: key1 });
    try {
      expect(openEndpointSecret(rotated.config, endpoint.id, sealed.secret)).toBe(secret);
      expect((await resealWebhookSecrets(rotated)).unreadable).not.toContain(endpoint.id);
      const now = await rawRow(endpoint.id);
      expect(now.secret.split(":")[1]).not.toBe(sealed.secret.split(":")[1]);
      const onlyNew = testDeps({ SECRETS_ENCRYPTION_KEY: key2 });
      expect(openEndpointSecret(onlyNew.config, endpoint.id, now.secret)).toBe(secret);
      await onlyNew.db.$disconnect();
      // Without the key that sealed it, a row is reported, not rewritten.
      const stranger = testDeps({ SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex") });
      expect((await resealWebhookSecrets(stranger)).unreadable).toContain(endpoint.id);
      expect(await rawRow(endpoint.id)).toEqual(now);
      await stranger.db.$disconnect();
    } finally {
      await rotated.db.$disconnect();
    }
  });
});
