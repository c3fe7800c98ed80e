/**
 * Remote mode, `bw --url <dashboard URL> …` (or BREAKWATER_URL): the commands the management API
 * covers, over HTTP with @breakwater/client and the management key in BREAKWATER_TOKEN, for an
 * installation whose database this machine cannot reach. Output is what the same command prints
 * on the database (render.ts), so a script reads both alike. Exit codes as ever: 0 ok, 1 refused
 * by the API (its problem: title, detail, type) or unreachable, 2 bad input.
 */

import {
  BreakwaterApiError,
  type BreakwaterClient,
  createBreakwaterClient,
  dashboardBaseUrl,
  listAll,
  unwrap,
} from "@breakwater/client";
import type { PlanDto } from "@breakwater/core/plans/list-plans";
import { type BudgetRules, changedBudget } from "./budget";
import { fail } from "./failure";
import { type FlagValue, UsageError } from "./parse";
import {
  budgetResult,
  keyCreatedResult,
  keyListResult,
  keyRevokedResult,
  planListResult,
  planSetResult,
  projectCreatedResult,
  projectListResult,
  type Result,
} from "./render";
import type { RunCommand } from "./spec";

type Values = Record<string, FlagValue | undefined>;

const str = (v: FlagValue | undefined) => (v === undefined ? undefined : String(v));
const num = (v: FlagValue | undefined) => (v === undefined ? undefined : Number(v));

/** How long one request may take before the command gives up (the API answers in milliseconds). */
const REQUEST_TIMEOUT_MS = 30_000;

const rulesOf = (b: BudgetRules): BudgetRules => ({
  mode: b.mode,
  limits: b.limits,
  thresholds: b.thresholds,
  runSpendCapUsd: b.runSpendCapUsd,
});

/** Every command that has a remote mode (`via: "api"` in spec.ts), as management API calls. */
export const REMOTE_COMMANDS: Record<string, (bw: BreakwaterClient, v: Values) => Promise<Result>> = {
  "project list": async (bw) =>
    projectListResult(
      await listAll((starting_after) =>
        bw.GET("/api/manage/v1/projects", { params: { query: { limit: 100, starting_after } } }),
      ),
    ),

  /** The project, in the key's organization, and its first SDK key. */
  "project create": async (bw, v) => {
    const limits =
      v.daily === undefined && v.weekly === undefined && v.monthly === undefined
        ? undefined
        : { daily: num(v.daily), weekly: num(v.weekly), monthly: num(v.monthly) };
    const project = unwrap(
      await bw.POST("/api/manage/v1/projects", {
        body: {
          name: str(v.name)!,
          mode: (str(v.mode) as BudgetRules["mode"] | undefined) ?? "alert_only",
          ...(limits ? { limits } : {}),
        },
      }),
    );
    const key = unwrap(
      await bw.POST("/api/manage/v1/projects/{projectId}/api-keys", {
        params: { path: { projectId: project.id } },
        body: { name: str(v["key-name"]) ?? "Default key" },
      }),
    );
    return projectCreatedResult(
      project,
      { id: key.id, apiKey: key.key },
      { id: project.organizationId, slug: null },
    );
  },

  "key create": async (bw, v) => {
    const key = unwrap(
      await bw.POST("/api/manage/v1/projects/{projectId}/api-keys", {
        params: { path: { projectId: str(v.project)! } },
        body: { ...(v.name !== undefined ? { name: str(v.name)! } : {}), readOnly: v["read-only"] === true },
      }),
    );
    return keyCreatedResult(key, key.key);
  },

  "key list": async (bw, v) =>
    keyListResult(
      await listAll((starting_after) =>
        bw.GET("/api/manage/v1/projects/{projectId}/api-keys", {
          params: { path: { projectId: str(v.project)! }, query: { limit: 100, starting_after } },
        }),
      ),
    ),

  "key revoke": async (bw, v) =>
    keyRevokedResult(
      unwrap(
        await bw.DELETE("/api/manage/v1/projects/{projectId}/api-keys/{keyId}", {
          params: { path: { projectId: str(v.project)!, keyId: str(v.key)! } },
        }),
      ),
    ),

  "budget show": async (bw, v) => {
    const b = unwrap(
      await bw.GET("/api/manage/v1/projects/{projectId}/budget", {
        params: { path: { projectId: str(v.project)! } },
      }),
    );
    return budgetResult(b.projectId, rulesOf(b));
  },

  /** Read, change what the flags say, replace with If-Match: a budget changed meanwhile is not overwritten (412). */
  "budget set": async (bw, v) => {
    const path = { projectId: str(v.project)! };
    const read = await bw.GET("/api/manage/v1/projects/{projectId}/budget", { params: { path } });
    const current = rulesOf(unwrap(read));
    const next = changedBudget(current, v);
    const etag = read.response.headers.get("etag");
    const b = unwrap(
      await bw.PUT("/api/manage/v1/projects/{projectId}/budget", {
        params: { path, ...(etag ? { header: { "If-Match": etag } } : {}) },
        body: next,
      }),
    );
    return budgetResult(b.projectId, rulesOf(b));
  },

  /** Operator keys only (the API answers 403 to an organization's key). */
  "plan list": async (bw) => {
    const plans = await listAll((starting_after) =>
      bw.GET("/api/manage/v1/operator/plans", { params: { query: { limit: 100, starting_after } } }),
    );
    return planListResult(
      plans.map((p) => ({ ...p, entitlements: p.entitlements as PlanDto["entitlements"] })),
    );
  },

  /** Operator keys only. */
  "org set-plan": async (bw, v) =>
    planSetResult(
      unwrap(
        await bw.PUT("/api/manage/v1/operator/organizations/{organization}/plan", {
          params: { path: { organization: str(v.org)! } },
          body: { planSlug: str(v.plan)! },
        }),
      ),
    ),
};

/** One line for a problem answer: title and detail for people, then status and the type to search the docs for. */
export function problemLine(err: BreakwaterApiError): string {
  const fields = err.errors
    .map((e) => `${"pointer" in e ? e.pointer : e.parameter}: ${e.detail}`)
    .filter((f) => !err.detail?.includes(f));
  const detail = [err.detail, ...fields].filter(Boolean).join("; ");
  const hint =
    err.type === "about:blank" ? " — not an answer of the management API: is --url the dashboard's URL?" : "";
  return `${err.title}${detail ? `: ${detail}` : ""} (${err.status} ${err.type})${hint}`;
}

/** One line for a request that got no answer. */
function unreachable(err: unknown, baseUrl: string): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError") {
    return `the management API at ${baseUrl} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  }
  if (e.name === "SyntaxError") {
    return `${baseUrl} did not answer as the management API (its answer is not JSON): is --url the dashboard's URL?`;
  }
  const why = e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
  return `cannot reach the management API at ${baseUrl} (${why})`;
}

/** Runs `cmd` (parsed with a URL: --url or BREAKWATER_URL) against the management API; the exit code. */
export async function runRemote(cmd: RunCommand, env: Record<string, string | undefined>): Promise<number> {
  const run = REMOTE_COMMANDS[cmd.name];
  if (!run) return fail(`"${cmd.name}" has no remote mode`, 2);
  const token = env.BREAKWATER_TOKEN?.trim();
  if (!token) {
    return fail(
      `BREAKWATER_TOKEN is not set: with --url, bw needs a management key (sk_mgmt_…, from Settings → API access)`,
      2,
    );
  }
  if (!token.startsWith("sk_mgmt_")) {
    const sdk = token.startsWith("sk_proj_") ? ": it holds an SDK key, which the management API refuses" : "";
    return fail(`BREAKWATER_TOKEN is not a management key (sk_mgmt_…)${sdk}`, 2);
  }
  let baseUrl: string;
  try {
    baseUrl = dashboardBaseUrl(cmd.url!);
  } catch (err) {
    return fail(`--url: ${(err as Error).message}`, 2);
  }
  const bw = createBreakwaterClient({
    baseUrl,
    token,
    headers: { "user-agent": "bw (Breakwater admin CLI)" },
    fetch: (request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  });
  try {
    const r = await run(bw, cmd.values);
    process.stdout.write(cmd.json ? `${JSON.stringify(r.json)}\n` : `${r.human}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    if (err instanceof BreakwaterApiError) return fail(problemLine(err), 1);
    return fail(unreachable(err, baseUrl), 1);
  }
}
