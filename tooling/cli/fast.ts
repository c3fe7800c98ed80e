/**
 * The admin CLI's front door (tooling/dist/bw-fast.mjs, what `npm run -s bw` starts): it answers
 * help and the read-only listings scripts call in loops (plan, org, project and key list) with plain
 * SQL over `pg`, bundled
 * into this one file — no Prisma client, query compiler, pino or Redis driver to load — and hands
 * every other command to the full CLI (bw.ts, tooling/dist/bw.mjs). Loading Prisma alone took
 * longer than the 0.5 s a simple command may take. Output is the full CLI's, byte for byte: both
 * render through render.ts, and bw.int.test compares the two. Remote mode (`--url`, remote.ts) is
 * answered here too, over HTTP.
 */

import v8 from "node:v8";
import { ConfigError, databaseUrlFrom } from "@breakwater/config/database-url";
import { type PlanListRow, planDtosFrom } from "@breakwater/core/plans/list-plans";
import {
  type ApiKeyRow,
  type OrganizationListRow,
  organizationListDtoFrom,
  organizationRef,
  type ProjectRow,
  projectDtoFrom,
  toApiKeyDto,
} from "@breakwater/core/tenancy/tenancy-rows";
import type pg from "pg";
import { describeFailure, fail } from "./failure";
import { keyListResult, orgListResult, planListResult, projectListResult, type Result } from "./render";
import { commandOf, type RunCommand } from "./spec";

/** plan list's rows in listPlans' shape: each plan's latest version with its entitlements, and its subscriptions. */
const PLAN_LIST_SQL = `
select p.id, p.slug, p.name, p.archived_at as "archivedAt",
  coalesce((
    select json_build_array(json_build_object(
      'version', v.version,
      'priceCents', v.price_cents,
      'entitlements', coalesce((
        select json_agg(json_build_object('featureKey', e.feature_key, 'value', e.value))
        from plan_entitlements e where e.plan_version_id = v.id), '[]'::json)))
    from plan_versions v where v.plan_id = p.id order by v.version desc limit 1), '[]'::json) as versions,
  json_build_object('subscriptions', (select count(*)::int from subscriptions s where s.plan_id = p.id)) as "_count"
from plans p`;

/** org list's rows in listOrganizations' shape (the system caller sees every organization). */
const ORG_LIST_SQL = `
select o.id, o.name, o.slug, pl.slug as "planSlug", o.created_at as "createdAt",
  (select count(*)::int from projects p where p.organization_id = o.id) as "projectCount"
from organizations o
left join subscriptions s on s.organization_id = o.id
left join plans pl on pl.id = s.plan_id
order by o.created_at, o.id`;

/** An organization's live projects with their period limits, in listProjects' shape. */
const PROJECT_LIST_SQL = `
select p.id, p.organization_id as "organizationId", p.name, p.mode, p.created_at as "createdAt",
  coalesce((select json_agg(json_build_object('period', l.period, 'limitUsd', l.limit_usd::text))
    from budget_limits l where l.project_id = p.id), '[]'::json) as "budgetLimits"
from projects p
where p.organization_id = $1 and p.archived_at is null
order by p.created_at, p.id`;

const KEY_LIST_SQL = `
select id, project_id as "projectId", name, prefix, read_only as "readOnly", created_at as "createdAt",
  last_used_at as "lastUsedAt", expires_at as "expiresAt", revoked_at as "revokedAt"
from api_keys where project_id = $1
order by created_at, id`;

/** A refusal the full CLI would print too (its message and exit code). */
class Refused extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** getOrganization's lookup: by id or slug; a blank reference is bad input, a missing one not found. */
async function organizationId(db: pg.Client, raw: string): Promise<string> {
  const ref = raw.trim();
  if (ref === "") throw new Refused("ref: An organization id or slug is required", 2);
  const where = organizationRef(ref);
  const { rows } = await db.query<{ id: string }>(
    "id" in where
      ? "select id from organizations where id = $1"
      : "select id from organizations where slug = $1",
    ["id" in where ? where.id : where.slug],
  );
  if (!rows[0]) throw new Refused("Organization not found", 1);
  return rows[0].id;
}

/** The commands answered here, each with one or two reads. */
const READS: Record<string, (db: pg.Client, cmd: RunCommand) => Promise<Result>> = {
  "plan list": async (db) => planListResult(planDtosFrom((await db.query<PlanListRow>(PLAN_LIST_SQL)).rows)),
  "org list": async (db) =>
    orgListResult((await db.query<OrganizationListRow>(ORG_LIST_SQL)).rows.map(organizationListDtoFrom)),
  "project list": async (db, cmd) => {
    const org = await organizationId(db, String(cmd.values.org));
    return projectListResult((await db.query<ProjectRow>(PROJECT_LIST_SQL, [org])).rows.map(projectDtoFrom));
  },
  "key list": async (db, cmd) => {
    const projectId = String(cmd.values.project);
    // listApiKeys' getProject: an unknown or archived project is not found.
    const project = await db.query("select 1 from projects where id = $1 and archived_at is null", [
      projectId,
    ]);
    if (project.rowCount === 0) throw new Refused("Project not found", 1);
    return keyListResult((await db.query<ApiKeyRow>(KEY_LIST_SQL, [projectId])).rows.map(toApiKeyDto));
  },
};

/** The exit code, or null when the full CLI takes the command. */
async function main(argv: string[]): Promise<number | null> {
  const cmd = commandOf(argv, process.env);
  if (typeof cmd === "number") return cmd;
  if (cmd.url !== undefined) {
    // Remote mode (--url or BREAKWATER_URL): HTTP to the management API, no database driver at all.
    const { runRemote } = await import("./remote");
    return runRemote(cmd, process.env);
  }
  const read = READS[cmd.name];
  if (!read) return null;

  let databaseUrl: string;
  try {
    databaseUrl = databaseUrlFrom(process.env);
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message, 2);
    throw err;
  }
  // Loaded here, not at start: help needs no driver.
  const { default: Pg } = await import("pg");
  const db = new Pg.Client({ connectionString: databaseUrl, application_name: "bw" });
  try {
    await db.connect();
    const r = await read(db, cmd);
    process.stdout.write(cmd.json ? `${JSON.stringify(r.json)}\n` : `${r.human}\n`);
    return 0;
  } catch (err) {
    if (err instanceof Refused) return fail(err.message, err.code);
    return fail(describeFailure(err, { DATABASE_URL: databaseUrl }), 1);
  } finally {
    // The Terminate message goes out now; waiting for the server to close the socket as well
    // (10 ms) buys nothing, since the process exits next.
    void db.end().catch(() => {});
  }
}

const code = await main(process.argv.slice(2));
if (code === null) {
  // Prisma's query compiler is WebAssembly: V8's optimizing tier recompiled it in the background on
  // every start, 0.6 s of CPU that a command's one or two queries never earn back. Its baseline
  // compiler alone (Liftoff) serves a short-lived process better.
  v8.setFlagsFromString("--liftoff-only");
  // Beside this file: tooling/dist/bw.mjs when bundled, bw.ts when run from source.
  await import(new URL(import.meta.url.endsWith(".ts") ? "./bw.ts" : "./bw.mjs", import.meta.url).href);
} else {
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  process.exit(code);
}
