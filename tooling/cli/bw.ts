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
import { describeFailure, fail } from "./failure";
import { UsageError } from "./parse";
import { runRemote } from "./remote";
import { simulate } from "./simulate";
import { commandOf } from "./spec";
import { mintSvixToken } from "./svix-token";

interface Out {
  json: boolean;
  print(human: string, machine: unknown): void;
}

async function main(argv: string[]): Promise<number> {
  const cmd = commandOf(argv, processEnv());
  if (typeof cmd === "number") return cmd;
  // The front (fast.ts) answers remote mode itself; this is for bw.mjs started directly.
  if (cmd.url !== undefined) return runRemote(cmd, processEnv());

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
      case "budget show":
        return show(out, await run.budgetShow(ctx, v));
      case "budget set":
        return show(out, await run.budgetSet(ctx, v));
      case "mgmt-key create":
        return show(out, await run.mgmtKeyCreate(ctx, v));
      case "mgmt-key list":
        return show(out, await run.mgmtKeyList(ctx, v));
      case "mgmt-key revoke":
        return show(out, await run.mgmtKeyRevoke(ctx, v));
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

const exitCode = await main(process.argv.slice(2));
// Exit explicitly once stdout has drained: core may hold process-wide connections (e.g. the Redis
// publisher that spreads key revocations) that would otherwise keep a finished command alive.
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
process.exit(exitCode);
