import { authSecret, type Config } from "@breakwater/config";
import { type Deps, FixedWindowLimiter, hasPendingInvitation, type IdPrefix, newId } from "@breakwater/core";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { organization } from "better-auth/plugins";
import { ac, roles } from "./access";
import { AUTH_RATE_LIMIT } from "./auth-handler";
import { CLIENT_IP_HEADER } from "./client-ip";

/** better-auth model → Breakwater id prefix, so auth rows carry the same sortable ids as the rest. */
const ID_PREFIX: Record<string, IdPrefix> = {
  user: "user",
  session: "sess",
  account: "acct",
  verification: "ver",
  organization: "org",
  member: "mem",
  invitation: "inv",
};

/**
 * Origins allowed to POST to the auth API: PUBLIC_URL, plus its loopback twin (localhost ↔
 * 127.0.0.1) so a local install works whichever name the browser used.
 */
export function trustedOrigins(config: Pick<Config, "PUBLIC_URL">): string[] {
  const url = new URL(config.PUBLIC_URL);
  const origins = new Set([url.origin]);
  const twin = url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : null;
  if (twin) {
    const alt = new URL(url.origin);
    alt.hostname = twin;
    origins.add(alt.origin);
  }
  return [...origins];
}

/**
 * The limiter behind the auth rate limits: counters in Redis (shared by every replica on that
 * Redis) when given a connection, else in this process's memory.
 */
export function createAuthLimiter(
  deps: Pick<Deps, "log">,
  redis?: ConstructorParameters<typeof FixedWindowLimiter>[0],
  prefix = "breakwater:auth-rl",
): FixedWindowLimiter {
  return new FixedWindowLimiter(redis, { prefix, log: deps.log.child({ module: "auth-rate-limit" }) });
}

/** Every HTTP path of the organization plugin (create, invite-member, accept-invitation, …). */
export function organizationHttpPaths(plugin: { endpoints: Record<string, unknown> }): string[] {
  return Object.values(plugin.endpoints)
    .map((e) => (e as { path?: unknown }).path)
    .filter((p): p is string => typeof p === "string")
    .sort();
}

/**
 * The dashboard's better-auth instance: email + password, sessions in Postgres through Prisma,
 * organizations with owner/admin/member/viewer. Signing up never makes anyone the operator: the
 * first operator comes from the one-time setup link `npm start` prints. Organizations are created only through Breakwater's own use case (which also
 * creates the subscription), never through better-auth's endpoint.
 */
export function createAuth(deps: Deps, opts: { limiter?: FixedWindowLimiter } = {}) {
  const { config } = deps;
  const organizations = organization({
    ac,
    roles,
    creatorRole: "owner",
    allowUserToCreateOrganization: false,
    invitationExpiresIn: 60 * 60 * 24 * 7,
  });
  const limiter = opts.limiter ?? createAuthLimiter(deps);
  const log = deps.log.child({ module: "auth" });
  return betterAuth({
    appName: "Breakwater",
    baseURL: config.PUBLIC_URL,
    basePath: "/api/auth",
    secret: authSecret(config),
    trustedOrigins: trustedOrigins(config),
    database: prismaAdapter(deps.db, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      // With ALLOW_SIGNUP off, sign-up stays open to invited addresses only (hooks.before below).
      disableSignUp: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
    },
    user: {
      additionalFields: {
        // Never settable by a client (input: false); granted by the one-time setup link (redeemOperatorSetupToken) or an operator.
        isOperator: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    advanced: {
      database: {
        generateId: ({ model }) => {
          const prefix = ID_PREFIX[model];
          if (!prefix) throw new Error(`No id prefix for better-auth model "${model}"`);
          return newId(prefix);
        },
      },
      useSecureCookies: config.PUBLIC_URL.startsWith("https://"),
      // Set by createAuthHandler from the socket peer and TRUST_PROXY, replacing any client value.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    rateLimit: {
      enabled: true,
      customStorage: {
        consume: async (key, rule) => {
          const decision = await limiter.consume(`ip:${key}`, rule);
          return { allowed: decision.allowed, retryAfter: decision.allowed ? null : decision.retryAfter };
        },
      },
      window: AUTH_RATE_LIMIT.window,
      max: AUTH_RATE_LIMIT.max,
      customRules: {
        "/sign-in/email": AUTH_RATE_LIMIT.credentials,
        "/sign-up/email": AUTH_RATE_LIMIT.credentials,
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-up/email" || config.ALLOW_SIGNUP) return;
        const email = (ctx.body as { email?: unknown } | undefined)?.email;
        if (typeof email === "string" && (await hasPendingInvitation(deps, email))) return;
        throw new APIError("BAD_REQUEST", {
          code: "EMAIL_PASSWORD_SIGN_UP_DISABLED",
          message: "Sign-up is by invitation only on this installation",
        });
      }),
    },
    telemetry: { enabled: false },
    logger: {
      level: config.LOG_LEVEL === "debug" || config.LOG_LEVEL === "trace" ? "debug" : "warn",
      log: (level, message, ...args) => {
        const fn =
          level === "error"
            ? log.error
            : level === "warn"
              ? log.warn
              : level === "debug"
                ? log.debug
                : log.info;
        fn.call(log, args.length ? { args: args.map(String) } : {}, message);
      },
    },
    // Organizations, members and invitations change only through Breakwater's own procedures,
    // which enforce the owner rules and write the audit row; so none of the plugin's endpoints
    // answer over HTTP (404). Server code keeps calling them through auth.api (set-active).
    disabledPaths: organizationHttpPaths(organizations),
    plugins: [organizations],
  });
}

export type Auth = ReturnType<typeof createAuth>;
