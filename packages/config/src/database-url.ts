/**
 * DATABASE_URL's rule, free of the config schema (and of zod, 750 kB to load): the schema uses it,
 * and so do short-lived tools that need nothing but the database (the admin CLI's listings).
 */
import { ConfigError } from "./error";

export { ConfigError };

export const DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/breakwater";

/** Whether `value` parses as a URL with one of `schemes` (without the colon). */
export function hasScheme(value: string, schemes: readonly string[]): boolean {
  try {
    return schemes.includes(new URL(value).protocol.replace(/:$/, ""));
  } catch {
    return false;
  }
}

export const schemeMessage = (schemes: readonly string[]) =>
  `must be a URL with scheme ${schemes.join(" or ")}`;

export const POSTGRES_SCHEMES = ["postgres", "postgresql"] as const;

/** DATABASE_URL exactly as parseConfig reads it (unset or empty: the default); ConfigError when unusable. */
export function databaseUrlFrom(env: Record<string, string | undefined>): string {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === "") return DEFAULT_DATABASE_URL;
  if (!hasScheme(raw, POSTGRES_SCHEMES))
    throw new ConfigError("DATABASE_URL", schemeMessage(POSTGRES_SCHEMES));
  return raw;
}
