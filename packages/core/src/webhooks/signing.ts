import { createHmac, randomBytes } from "node:crypto";

/** A new endpoint secret in the Standard Webhooks / Svix format: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * The `v1,<base64 HMAC-SHA256>` signature of `${id}.${timestamp}.${body}` under a whsec_ secret —
 * what svix's Webhook.sign computes, with Node's native HMAC instead of svix's JavaScript SHA-256
 * (every delivery is signed, so that difference shows under a backlog).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  // svix strips the whsec_ prefix itself; a bare base64 key is accepted as is.
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * The Standard Webhooks headers for one request. Several secrets (during a rotation) give several
 * space-separated signatures, so receivers verifying with either secret accept it.
 */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": secrets.map((s) => signWebhook(s, id, timestampSeconds, body)).join(" "),
  };
}
