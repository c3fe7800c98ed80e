/**
 * Turns a better-auth client error into a sentence for the form (never a stack or raw code).
 * `retryAfter`: the seconds a 429 asked to wait (its X-Retry-After header), when known.
 */
export function authErrorMessage(
  error: { code?: string; message?: string; status?: number } | null | undefined,
  retryAfter?: number | null,
): string {
  if (!error) return "Something went wrong. Try again.";
  if (error.status === 429) {
    return retryAfter && Number.isFinite(retryAfter) && retryAfter > 0
      ? `Too many attempts, try again in ${Math.ceil(retryAfter)} s.`
      : "Too many attempts. Wait a minute and try again.";
  }
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return "Wrong email or password.";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "An account with this email already exists. Sign in instead.";
    case "PASSWORD_TOO_SHORT":
      return "Use a password of at least 8 characters.";
    case "PASSWORD_TOO_LONG":
      return "Use a password of at most 128 characters.";
    case "INVALID_EMAIL":
      return "Enter a valid email address.";
    case "EMAIL_PASSWORD_SIGN_UP_DISABLED":
      return "Sign-up is turned off on this installation. Ask an administrator for an invitation.";
    case "INVALID_ORIGIN":
    case "MISSING_OR_NULL_ORIGIN":
      return "This address is not trusted by the server. Open the dashboard at its configured PUBLIC_URL.";
  }
  return error.message && error.message.length < 160 ? error.message : "Something went wrong. Try again.";
}

const SAME_ORIGIN_BASE = new URL("http://breakwater.invalid");
/** A path of this origin: one "/" and then anything but a second "/" or "\\" (which browsers read as "/"). */
const LOCAL_PATH = /^\/(?![/\\])/;
/** Whitespace (browsers strip tabs and newlines from URLs), zero-width marks and backslashes. */
const UNSAFE_CHAR = /[\s\u200b-\u200f\\]/;

/** True when `s` holds whitespace, a backslash, or a C0/C1 control character. */
function hasUnsafeChar(s: string): boolean {
  if (UNSAFE_CHAR.test(s)) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/**
 * The page to open after sign-in: a path on this origin, else "/" (no open redirects). Refuses
 * protocol-relative and backslash forms (`//evil`, `/\\evil`), schemes (`https:evil`,
 * `javascript:`), whitespace and control characters anywhere (browsers drop tabs and newlines, so
 * `/\t/evil` would become `//evil`), the same tricks percent-encoded once (`/%2F%2Fevil`,
 * `/%5Cevil`), and anything that resolves to another origin. Returns the path normalized.
 */
export function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (typeof value !== "string" || value.length > 2048) return "/";
  if (!LOCAL_PATH.test(value) || hasUnsafeChar(value)) return "/";
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return "/";
  }
  // Decoded, a space is fine (`?q=a%20b`); everything else unsafe raw is unsafe encoded too.
  if (!LOCAL_PATH.test(decoded) || hasUnsafeChar(decoded.replace(/ /g, ""))) return "/";
  let url: URL;
  try {
    url = new URL(value, SAME_ORIGIN_BASE);
  } catch {
    return "/";
  }
  if (url.origin !== SAME_ORIGIN_BASE.origin) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  return LOCAL_PATH.test(path) ? path : "/";
}
