import type { Config } from "@breakwater/config";
import type { Deps } from "../context";
import { openSecret, SecretUnreadableError, sealedUnderCurrentKey, sealSecret } from "../secrets/secret-box";

/** Sealed secrets are bound to their endpoint: one copied to another row does not open there. */
const context = (endpointId: string) => `webhook_endpoints:${endpointId}`;

/** The stored (sealed) form of an endpoint's signing secret. */
export function sealEndpointSecret(config: Config, endpointId: string, secret: string): string {
  return sealSecret(config, secret, context(endpointId));
}

/** The signing secret from its stored form. */
export function openEndpointSecret(config: Config, endpointId: string, stored: string): string {
  return openSecret(config, stored, context(endpointId));
}

/**
 * Seals every endpoint secret (current and previous) that is stored in plain text — rows from
 * before encryption — or under an older key, with the current key. Idempotent; a row changed
 * meanwhile (a rotation) is left for the next run. A row no configured key opens is skipped and
 * reported (its endpoint cannot sign until the key that sealed it is configured again).
 */
export async function resealWebhookSecrets(
  deps: Pick<Deps, "db" | "config">,
): Promise<{ resealed: number; unreadable: string[] }> {
  const rows = await deps.db.webhookEndpoint.findMany({
    select: { id: true, secret: true, previousSecret: true },
  });
  let resealed = 0;
  const unreadable: string[] = [];
  for (const r of rows) {
    const stale = (v: string | null) => v !== null && !sealedUnderCurrentKey(deps.config, v);
    if (!stale(r.secret) && !stale(r.previousSecret)) continue;
    const reseal = (v: string) =>
      sealEndpointSecret(deps.config, r.id, openEndpointSecret(deps.config, r.id, v));
    let data: { secret: string; previousSecret: string | null };
    try {
      data = {
        secret: reseal(r.secret),
        previousSecret: r.previousSecret === null ? null : reseal(r.previousSecret),
      };
    } catch (err) {
      if (!(err instanceof SecretUnreadableError)) throw err;
      unreadable.push(r.id);
      continue;
    }
    const n = await deps.db.webhookEndpoint.updateMany({
      where: { id: r.id, secret: r.secret, previousSecret: r.previousSecret },
      data,
    });
    resealed += n.count;
  }
  return { resealed, unreadable };
}
