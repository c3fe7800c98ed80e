/** Turns a better-auth client error into a sentence for the form (never a stack or raw code). */
export function authErrorMessage(
  error: { code?: string; message?: string; status?: number } | null | undefined,
): string {
  if (!error) return "Something went wrong. Try again.";
  if (error.status === 429) return "Too many attempts from this network. Wait a minute and try again.";
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

/** Only same-site paths are followed after sign-in (no open redirects). */
export function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  return value?.startsWith("/") && !value.startsWith("//") ? value : "/";
}
