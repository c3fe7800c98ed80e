import { createHmac, randomBytes } from "node:crypto";

/** A new endpoint secret in the Standard Webhooks / Svix format: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** The `v1,<base64 HMAC-SHA256>` signature of `${id}.${timestamp}.${body}` under a whsec_ secret. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
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
