import { createHmac } from "node:crypto";

/** svix-server's built-in organization: tokens for it administer the whole self-hosted server. */
export const SVIX_DEFAULT_ORG_ID = "org_23rb8YdGqMT0qIzpgGwdXfHirMu";

const b64url = (s: string | Buffer) => Buffer.from(s).toString("base64url");

/**
 * An HS256 JWT that a self-hosted svix-server accepts as its API token (what `svix-server jwt
 * generate` prints), signed with the server's SVIX_JWT_SECRET as raw UTF-8 bytes. Lets
 * docker-compose users derive SVIX_API_KEY from the secret without running the server first.
 */
export function mintSvixToken(secret: string, opts: { ttlDays?: number; now?: Date } = {}): string {
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(
    JSON.stringify({
      iat,
      exp: iat + (opts.ttlDays ?? 3650) * 86_400,
      nbf: iat,
      iss: "svix-server",
      sub: SVIX_DEFAULT_ORG_ID,
    }),
  );
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}
