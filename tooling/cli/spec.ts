/** The admin CLI's command table: names, summaries and flags, shared by both entry points (fast.ts, bw.ts). */
import { fail } from "./failure";
import { type CommandSpec, type ParsedCommand, parseCommand, UsageError, usage } from "./parse";

export type RunCommand = Extract<ParsedCommand, { kind: "run" }>;

export const COMMANDS: CommandSpec[] = [
  {
    name: "org create",
    summary: "Create an organization on a plan",
    flags: {
      name: { type: "string", required: true, help: "display name" },
      plan: { type: "string", choices: ["free", "solo", "team", "business"], help: "plan (default free)" },
      slug: { type: "string", help: "URL slug (default: from the name)" },
    },
  },
  { name: "org list", summary: "List organizations", flags: {} },
  {
    name: "project create",
    summary: "Create a project and its first API key (a fresh team-plan organization when --org is omitted)",
    via: "api",
    flags: {
      org: {
        type: "string",
        help: "organization id or slug",
        localOnly: "the project goes to the management key's organization",
      },
      name: { type: "string", required: true, help: "project name" },
      mode: {
        type: "string",
        choices: ["alert_only", "hard_deny"],
        help: "budget mode (default alert_only)",
      },
      daily: { type: "usd", help: "daily limit in USD" },
      weekly: { type: "usd", help: "weekly limit in USD" },
      monthly: { type: "usd", help: "monthly limit in USD (default 100 when no limit is given)" },
      "key-name": { type: "string", help: "name of the first key" },
    },
  },
  {
    name: "project list",
    summary: "List the projects of an organization",
    via: "api",
    flags: {
      org: {
        type: "string",
        required: "local",
        help: "organization id or slug",
        localOnly: "the management key's organization is listed",
      },
    },
  },
  {
    name: "key create",
    summary: "Mint an API key for a project (shown once)",
    via: "api",
    flags: {
      project: { type: "string", required: true, help: "project id" },
      name: { type: "string", help: "key name" },
      "read-only": { type: "boolean", help: "refused on every SDK write endpoint" },
    },
  },
  {
    name: "key list",
    summary: "List the keys of a project (never the secret)",
    via: "api",
    flags: { project: { type: "string", required: true, help: "project id" } },
  },
  {
    name: "key revoke",
    summary: "Revoke a key",
    via: "api",
    flags: {
      key: { type: "string", required: true, help: "key id (key_…)" },
      project: {
        type: "string",
        required: "remote",
        help: "the key's project id (the API addresses a key under its project)",
      },
    },
  },
  {
    name: "budget show",
    summary: "Show a project's budget: mode, period limits, alert thresholds and run spend cap",
    via: "api",
    flags: { project: { type: "string", required: true, help: "project id" } },
  },
  {
    name: "budget set",
    summary: "Change a project's budget (what is not given stays as it is)",
    via: "api",
    flags: {
      project: { type: "string", required: true, help: "project id" },
      mode: { type: "string", choices: ["alert_only", "hard_deny"], help: "budget mode" },
      daily: { type: "usd", help: "daily limit in USD" },
      weekly: { type: "usd", help: "weekly limit in USD" },
      monthly: { type: "usd", help: "monthly limit in USD" },
      thresholds: {
        type: "string",
        help: "alert thresholds in whole percent, comma-separated, e.g. 50,80,100",
      },
      "run-cap": { type: "usd", help: "spend cap per agent run in USD" },
      clear: {
        type: "string",
        help: "remove, comma-separated: daily, weekly, monthly (a limit), thresholds, run-cap",
      },
    },
  },
  {
    name: "mgmt-key create",
    summary: "Mint a management API key (shown once): read/write for an organization, or an operator key",
    remoteHint: "management keys are made in the dashboard, Settings → API access, or here on the database",
    flags: {
      org: { type: "string", help: "organization id or slug (read and write keys)" },
      name: { type: "string", required: true, help: "key name" },
      scope: {
        type: "string",
        required: true,
        choices: ["read", "write", "operator"],
        help: "what the key may do",
      },
      expires: { type: "string", help: "expiry, an ISO date or time (default: never)" },
      as: { type: "string", help: "email of the operator an operator key acts for (operator keys)" },
    },
  },
  {
    name: "mgmt-key list",
    summary: "List an organization's management keys, or the operator keys (never the secret)",
    remoteHint: "management keys are made in the dashboard, Settings → API access, or here on the database",
    flags: {
      org: { type: "string", help: "organization id or slug" },
      operator: { type: "boolean", help: "list the installation's operator keys instead" },
    },
  },
  {
    name: "mgmt-key revoke",
    summary: "Revoke a management key at once",
    remoteHint: "management keys are made in the dashboard, Settings → API access, or here on the database",
    flags: { key: { type: "string", required: true, help: "key id (mk_…)" } },
  },
  {
    name: "org set-plan",
    summary: "Move an organization to a plan (its latest version; drops a pin)",
    via: "api",
    flags: {
      org: { type: "string", required: true, help: "organization id or slug" },
      plan: { type: "string", required: true, help: "plan slug" },
    },
  },
  {
    name: "override set",
    summary: "Override one feature for an organization or a project (replaces an earlier override)",
    flags: {
      org: { type: "string", help: "organization id or slug (organization-level)" },
      project: { type: "string", help: "project id (project-level)" },
      feature: { type: "string", required: true, help: "feature key, e.g. failover_tuning" },
      value: { type: "string", required: true, help: "true, false, a whole number or unlimited" },
      reason: { type: "string", required: true, help: "why (shown as the deciding reason)" },
      expires: { type: "string", help: "ISO date-time when it stops applying (future)" },
    },
  },
  {
    name: "override clear",
    summary: "Remove the override of one feature for an organization or a project",
    flags: {
      org: { type: "string", help: "organization id or slug" },
      project: { type: "string", help: "project id" },
      feature: { type: "string", required: true, help: "feature key" },
      reason: { type: "string", help: "why (kept in the audit log)" },
    },
  },
  { name: "plan list", summary: "List plans with price and entitlements", via: "api", flags: {} },
  {
    name: "plan show",
    summary: "Show a plan's versions and every feature (all plans' current version without --plan)",
    flags: { plan: { type: "string", help: "plan slug" } },
  },
  {
    name: "user create",
    summary: "Create a user who signs in with email and password (optionally an operator)",
    flags: {
      email: { type: "string", required: true, help: "email address" },
      name: { type: "string", required: true, help: "display name" },
      password: { type: "string", required: true, help: "password (8–128 characters)" },
      operator: { type: "boolean", help: "make the user an operator of this installation" },
    },
  },
  {
    name: "operator setup-link",
    summary: "Print a one-time link that creates the first operator (only while there is none)",
    flags: {},
  },
  { name: "migrate", summary: "Apply pending database migrations (prisma migrate deploy)", flags: {} },
  {
    name: "seed",
    summary: "Seed plans, the price catalogue and the demo project with its key (idempotent)",
    flags: { "plans-only": { type: "boolean", help: "plans and price catalogue only, no demo project" } },
  },
  {
    name: "simulate",
    summary:
      "Drive a fleet of simulated SDK instances over the wire API: checks, confirms, metadata events with failovers, breaker reports through outages; a progress line on stderr",
    flags: {
      project: { type: "string", required: true, help: "project id" },
      instances: { type: "int", help: "SDK instances (default 50)" },
      providers: {
        type: "string",
        help: "failover chain, comma-separated (default openai,anthropic,google)",
      },
      minutes: { type: "int", help: "how long to run (default 5)" },
      key: { type: "string", help: "the project's API key (default: a new key is created for the run)" },
      url: {
        type: "string",
        help: "SDK API base URL (default http://localhost:<SDK_PORT>)",
      },
      seed: { type: "int", help: "random seed, to replay a run" },
      scenario: {
        type: "string",
        help: "outage: one clean provider incident (30 % → 50 % → 100 % Down → recovered) instead of random outages",
      },
      "step-seconds": { type: "int", help: "outage scenario: seconds per step (default 20)" },
      "recover-seconds": {
        type: "int",
        help: "outage scenario: healthy seconds after recovery, to outlast the quiet period (default 65)",
      },
      "healthy-seconds": { type: "int", help: "outage scenario: healthy lead-in seconds (default 10)" },
    },
  },
  {
    name: "svix token",
    summary: "Mint the API token a self-hosted svix-server accepts (SVIX_API_KEY) from its SVIX_JWT_SECRET",
    via: "none",
    flags: {
      secret: { type: "string", required: true, help: "the svix-server's SVIX_JWT_SECRET" },
      "ttl-days": { type: "int", help: "validity in days (default 3650)" },
    },
  },
];

/**
 * The command `argv` names, or the exit code when there is nothing to run: help printed (0) or bad
 * input refused with one line (2). Both entry points (fast.ts, bw.ts) start here.
 */
export function commandOf(argv: string[], env: { BREAKWATER_URL?: string } = {}): RunCommand | number {
  let cmd: ParsedCommand;
  try {
    cmd = parseCommand(COMMANDS, argv, { remoteUrl: env.BREAKWATER_URL });
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    throw err;
  }
  if (cmd.kind === "help") {
    process.stdout.write(usage(COMMANDS, cmd.topic));
    return 0;
  }
  return cmd;
}
