import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { type Config, secretsKeys } from "@breakwater/config";

/**
 * Secrets Breakwater must read back (webhook signing secrets) are stored sealed with AES-256-GCM
 * under SECRETS_ENCRYPTION_KEY, as `v1:<kid>:<iv>:<ciphertext>:<tag>` (base64url parts). The key
 * id (the first 8 hex digits of the key's SHA-256) says which key sealed a value, so a new key can
 * take over while the old ones (SECRETS_ENCRYPTION_OLD_KEYS) still open what they sealed; the
 * `context` (e.g. the row's id) is bound as additional data, so a sealed value copied to another
 * row does not open there. A database dump alone opens nothing.
 */

const PREFIX = "v1";

interface Keyring {
  currentKid: string;
  keys: Map<string, Buffer>;
}

const keyrings = new WeakMap<Config, Keyring>();

function decodeKey(k: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(k) ? Buffer.from(k, "hex") : Buffer.from(k, "base64");
}

export function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

function keyring(config: Config): Keyring {
  let ring = keyrings.get(config);
  if (!ring) {
    const { current, old } = secretsKeys(config);
    const keys = new Map<string, Buffer>();
    const cur = decodeKey(current);
    const currentKid = keyId(cur);
    keys.set(currentKid, cur);
    for (const k of old) {
      const b = decodeKey(k);
      if (!keys.has(keyId(b))) keys.set(keyId(b), b);
    }
    ring = { currentKid, keys };
    keyrings.set(config, ring);
  }
  return ring;
}

/** Throws now (one line naming the variable) when the process could not open or seal secrets. */
export function assertSecretsKey(config: Config): void {
  keyring(config);
}

/** True when `stored` is a sealed value (not legacy plain text). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(`${PREFIX}:`);
}

/** The key id a sealed value names, or null for plain text. */
export function sealedKeyId(stored: string): string | null {
  return isSealed(stored) ? (stored.split(":")[1] ?? null) : null;
}

/** True when `stored` is sealed under the current key (nothing to re-seal). */
export function sealedUnderCurrentKey(config: Config, stored: string): boolean {
  return sealedKeyId(stored) === keyring(config).currentKid;
}

/** Seals `plaintext` under the current key, bound to `context`. */
export function sealSecret(config: Config, plaintext: string, context: string): string {
  const ring = keyring(config);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.keys.get(ring.currentKid)!, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    PREFIX,
    ring.currentKid,
    iv.toString("base64url"),
    ct.toString("base64url"),
    tag.toString("base64url"),
  ].join(":");
}

export class SecretUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretUnreadableError";
  }
}

/**
 * Opens a sealed value. A value without the `v1:` prefix is a secret stored before encryption
 * existed and is returned as is (the seed step re-seals those; see resealWebhookSecrets).
 */
export function openSecret(config: Config, stored: string, context: string): string {
  if (!isSealed(stored)) return stored;
  const [, kid, iv, ct, tag, ...rest] = stored.split(":");
  if (!kid || !iv || ct === undefined || !tag || rest.length > 0)
    throw new SecretUnreadableError("a stored secret is malformed");
  const key = keyring(config).keys.get(kid);
  if (!key)
    throw new SecretUnreadableError(
      `a stored secret was sealed with key ${kid}, which is neither SECRETS_ENCRYPTION_KEY nor in SECRETS_ENCRYPTION_OLD_KEYS`,
    );
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadableError(`a stored secret does not open with key ${kid} (tampered or moved)`);
  }
}
