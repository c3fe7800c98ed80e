/**
 * `npm run -s bw -- <command>`: the operator's admin CLI. Thin edge over @breakwater/core (system
 * caller): parse flags, call one core function, print. Human-readable by default; `--json` prints
 * exactly one JSON value on stdout and nothing else. Exit codes: 0 ok, 1 refused by the domain
 * (its message) or infrastructure failure, 2 bad input (one line on stderr).
 */
import { spawnSync } from "node:child_process";
import { type Config, ConfigError, parseConfig, processEnv } from "@breakwater/config";
import { type Ctx, DomainError, systemCtx } from "@breakwater/core";
import { ZodError } from "zod";
import { createToolDeps } from "../src/deps";
import { dataDir, repoRoot } from "../src/paths";
import { seed } from "../src/seed";
import * as run from "./commands";
import { type CommandSpec, parseCommand, UsageError, usage } from "./parse";
import { simulate } from "./simulate";
import { mintSvixToken } from "./svix-token";

const COMMANDS: CommandSpec[] = [
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
    flags: {
      org: { type: "string", help: "organization id or slug" },
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
    flags: { org: { type: "string", required: true, help: "organization id or slug" } },
  },
  {
    name: "key create",
    summary: "Mint an API key for a project (shown once)",
    flags: {
      project: { type: "string", required: true, help: "project id" },
      name: { type: "string", help: "key name" },
      "read-only": { type: "boolean", help: "refused on every SDK write endpoint" },
    },
  },
  {
    name: "key list",
    summary: "List the keys of a project (never the secret)",
    flags: { project: { type: "string", required: true, help: "project id" } },
  },
  {
    name: "key revoke",
    summary: "Revoke a key",
    flags: { key: { type: "string", required: true, help: "key id (key_…)" } },
  },
  {
    name: "org set-plan",
    summary: "Move an organization to a plan (its latest version; drops a pin)",
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
  { name: "plan list", summary: "List plans with price and entitlements", flags: {} },
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
    flags: {
      secret: { type: "string", required: true, help: "the svix-server's SVIX_JWT_SECRET" },
      "ttl-days": { type: "int", help: "validity in days (default 3650)" },
    },
  },
];

interface Out {
  json: boolean;
  print(human: string, machine: unknown): void;
}

async function main(argv: string[]): Promise<number> {
  let cmd: ReturnType<typeof parseCommand>;
  try {
    cmd = parseCommand(COMMANDS, argv);
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    throw err;
  }
  if (cmd.kind === "help") {
    process.stdout.write(usage(COMMANDS, cmd.topic));
    return 0;
  }

  const out: Out = {
    json: cmd.json,
    print(human, machine) {
      process.stdout.write(cmd.json ? `${JSON.stringify(machine)}\n` : `${human}\n`);
    },
  };
  const v = cmd.values;

  if (cmd.name === "svix token") {
    const token = mintSvixToken(String(v.secret), { ttlDays: (v["ttl-days"] as number | undefined) ?? 3650 });
    out.print(token, { token });
    return 0;
  }

  let config: Config;
  try {
    config = parseConfig(processEnv());
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message, 2);
    throw err;
  }

  if (cmd.name === "migrate") {
    // The Prisma CLI goes through packages/db's offline wrapper; its chatter goes to stderr so
    // stdout stays ours.
    const res = spawnSync("npm", ["run", "-s", "-w", "@breakwater/db", "migrate:deploy"], {
      cwd: repoRoot,
      env: { ...processEnv(), DATABASE_URL: config.DATABASE_URL },
      stdio: ["ignore", cmd.json ? 2 : "inherit", "inherit"],
    });
    if (res.status !== 0) return fail(`migrate deploy failed (exit ${res.status ?? res.signal})`, 1);
    out.print("Migrations applied; the database is up to date.", { migrated: true });
    return 0;
  }

  const deps = createToolDeps(config, "bw");
  const ctx: Ctx = systemCtx(deps, "cli");
  try {
    switch (cmd.name) {
      case "seed": {
        const r = await seed(ctx, { dataDir, demo: v["plans-only"] !== true });
        const pc = r.priceCatalogue;
        out.print(
          [
            `Plans: ${r.plans.join(", ")}`,
            `Price catalogue: ${pc.created} created, ${pc.refreshed} refreshed, ${pc.unchanged} unchanged, ${pc.keptOperatorEdits} kept (edited by an operator)`,
            ...(r.demo
              ? [
                  `Demo project: ${r.demo.projectId} (key ${r.demo.minted ? "minted" : "reused"})`,
                  `Demo key: ${r.demo.apiKey}  (stored in ${r.demo.keyFile})`,
                ]
              : []),
          ].join("\n"),
          {
            plans: r.plans,
            price_catalogue: {
              created: pc.created,
              refreshed: pc.refreshed,
              unchanged: pc.unchanged,
              kept_operator_edits: pc.keptOperatorEdits,
            },
            demo: r.demo && {
              organization_id: r.demo.organizationId,
              project_id: r.demo.projectId,
              api_key: r.demo.apiKey,
              key_minted: r.demo.minted,
            },
          },
        );
        return 0;
      }
      case "org create":
        return show(out, await run.orgCreate(ctx, v));
      case "org list":
        return show(out, await run.orgList(ctx));
      case "project create":
        return show(out, await run.projectCreate(ctx, v));
      case "project list":
        return show(out, await run.projectList(ctx, v));
      case "key create":
        return show(out, await run.keyCreate(ctx, v));
      case "key list":
        return show(out, await run.keyList(ctx, v));
      case "key revoke":
        return show(out, await run.keyRevoke(ctx, v));
      case "plan list":
        return show(out, await run.planList(ctx));
      case "simulate":
        return show(out, await simulate(ctx, v));
      case "plan show":
        return show(out, await run.planShow(ctx, v));
      case "org set-plan":
        return show(out, await run.orgSetPlan(ctx, v));
      case "override set":
        return show(out, await run.overrideSet(ctx, v));
      case "override clear":
        return show(out, await run.overrideClear(ctx, v));
      case "user create":
        return show(out, await run.userCreate(ctx, v));
      case "operator setup-link":
        return show(out, await run.operatorSetupLink(ctx, config.PUBLIC_URL));
      default:
        return fail(`unknown command "${cmd.name}"`, 2);
    }
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    if (err instanceof DomainError) return fail(err.message, 1);
    if (err instanceof ZodError) {
      const issue = err.issues[0];
      const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      return fail(`${where}${issue?.message ?? "invalid input"}`, 2);
    }
    return fail(describeFailure(err, config), 1);
  } finally {
    await deps.db.$disconnect();
  }
}

function show(out: Out, r: run.Result): number {
  out.print(r.human, r.json);
  return 0;
}

function fail(message: string, code: number): number {
  process.stderr.write(`bw: ${message}\n`);
  return code;
}

/** One line for an unexpected failure; the usual one is an unreachable or unmigrated database. */
function describeFailure(err: unknown, config: Config): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  const where = (() => {
    const u = new URL(config.DATABASE_URL);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  })();
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ETIMEDOUT") {
    return `cannot reach Postgres at ${where} (${code}); start it or set DATABASE_URL`;
  }
  if (code === "P2021" || /does not exist/.test(e.message ?? "")) {
    return `the database at ${where} is not migrated; run: npm run -s bw -- migrate`;
  }
  const first = (e.message ?? String(err)).split("\n").find((l) => l.trim()) ?? "unexpected error";
  return first.trim();
}

const exitCode = await main(process.argv.slice(2));
// Exit explicitly once stdout has drained: core may hold process-wide connections (e.g. the Redis
// publisher that spreads key revocations) that would otherwise keep a finished command alive.
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
process.exit(exitCode);
