/** The admin CLI's commands: each calls core with the system caller and renders both output forms. */
import {
  budgetRulesEtag,
  type Ctx,
  clearEntitlementOverride,
  createApiKey,
  createManagementKey,
  createOrganization,
  createProject,
  createUserWithPassword,
  type FeatureValue,
  getBudgetSettings,
  getOrganization,
  getPlan,
  issueOperatorSetupToken,
  listApiKeys,
  listManagementKeys,
  listOrganizations,
  listPlans,
  listProjects,
  type ManagementKeyDto,
  notFound,
  type OverrideDto,
  type ProjectDto,
  revokeApiKey,
  revokeManagementKey,
  setEntitlementOverride,
  setOrganizationPlan,
  updateBudgetSettings,
} from "@breakwater/core";
import { hashPassword } from "better-auth/crypto";
import { type BudgetRules, changedBudget } from "./budget";
import type { FlagValue } from "./parse";
import { UsageError } from "./parse";
import {
  budgetResult,
  keyCreatedResult,
  keyListResult,
  keyRevokedResult,
  orgListResult,
  planListResult,
  planSetResult,
  projectCreatedResult,
  projectListResult,
  type Result,
  table,
} from "./render";

export type { Result } from "./render";

type Values = Record<string, FlagValue | undefined>;

const str = (v: FlagValue | undefined) => (v === undefined ? undefined : String(v));
const num = (v: FlagValue | undefined) => (v === undefined ? undefined : Number(v));

export async function orgCreate(ctx: Ctx, v: Values): Promise<Result> {
  const org = await createOrganization(ctx, {
    name: str(v.name)!,
    slug: str(v.slug),
    planSlug: str(v.plan) ?? "free",
  });
  return {
    human: `Created organization ${org.name} (${org.id}, slug ${org.slug}, plan ${org.planSlug})`,
    json: {
      organization_id: org.id,
      name: org.name,
      slug: org.slug,
      plan: org.planSlug,
      created_at: org.createdAt,
    },
  };
}

export async function orgList(ctx: Ctx): Promise<Result> {
  return orgListResult(await listOrganizations(ctx));
}

/** Creates the project and its first key; with no --org, in a fresh team-plan organization (test/bench seeding). */
export async function projectCreate(ctx: Ctx, v: Values): Promise<Result> {
  const org = v.org
    ? await getOrganization(ctx, { ref: str(v.org)! })
    : await createOrganization(ctx, {
        name: `Org ${new Date().toISOString().slice(0, 10)} ${Math.random().toString(36).slice(2, 8)}`,
        planSlug: "team",
      });
  const limits =
    v.daily === undefined && v.weekly === undefined && v.monthly === undefined
      ? undefined
      : { daily: num(v.daily), weekly: num(v.weekly), monthly: num(v.monthly) };
  const project = await createProject(ctx, {
    organizationId: org.id,
    name: str(v.name)!,
    mode: (str(v.mode) as ProjectDto["mode"] | undefined) ?? "alert_only",
    limits,
  });
  const { apiKey, key } = await createApiKey(ctx, {
    projectId: project.id,
    name: str(v["key-name"]) ?? "Default key",
  });
  return projectCreatedResult(project, { id: key.id, apiKey }, org);
}

export async function projectList(ctx: Ctx, v: Values): Promise<Result> {
  const org = await getOrganization(ctx, { ref: str(v.org)! });
  return projectListResult(await listProjects(ctx, org.id));
}

export async function keyCreate(ctx: Ctx, v: Values): Promise<Result> {
  const { apiKey, key } = await createApiKey(ctx, {
    projectId: str(v.project)!,
    name: str(v.name),
    readOnly: v["read-only"] === true,
  });
  return keyCreatedResult(key, apiKey);
}

export async function keyList(ctx: Ctx, v: Values): Promise<Result> {
  return keyListResult(await listApiKeys(ctx, str(v.project)!));
}

/** Revokes a key; with --project, only a key of that project (as the API, which addresses keys under their project). */
export async function keyRevoke(ctx: Ctx, v: Values): Promise<Result> {
  if (v.project !== undefined) {
    const keys = await listApiKeys(ctx, str(v.project)!);
    if (!keys.some((k) => k.id === str(v.key))) throw notFound("API key");
  }
  return keyRevokedResult(await revokeApiKey(ctx, { keyId: str(v.key)! }));
}

const rulesOf = (b: BudgetRules): BudgetRules => ({
  mode: b.mode,
  limits: b.limits,
  thresholds: b.thresholds,
  runSpendCapUsd: b.runSpendCapUsd,
});

export async function budgetShow(ctx: Ctx, v: Values): Promise<Result> {
  const b = await getBudgetSettings(ctx, { projectId: str(v.project)! });
  return budgetResult(b.projectId, rulesOf(b));
}

/** Changes the flags given and keeps the rest; a budget changed by someone else meanwhile is not overwritten. */
export async function budgetSet(ctx: Ctx, v: Values): Promise<Result> {
  const projectId = str(v.project)!;
  const current = rulesOf(await getBudgetSettings(ctx, { projectId }));
  const next = changedBudget(current, v);
  const b = await updateBudgetSettings(ctx, { ...next, projectId }, { ifMatch: budgetRulesEtag(current) });
  return budgetResult(b.projectId, rulesOf(b));
}

function mgmtKeyJson(k: ManagementKeyDto) {
  return {
    key_id: k.id,
    organization_id: k.organizationId,
    name: k.name,
    scope: k.scope,
    prefix: k.prefix,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
  };
}

/**
 * Mints a management key: read/write keys for `--org`, operator keys for the operator named by
 * `--as` (an operator key works only while its creator is an operator).
 */
export async function mgmtKeyCreate(ctx: Ctx, v: Values): Promise<Result> {
  const scope = str(v.scope) as ManagementKeyDto["scope"];
  const expiresAt = v.expires === undefined ? undefined : new Date(str(v.expires)!);
  if (expiresAt && Number.isNaN(expiresAt.getTime()))
    throw new UsageError("--expires must be an ISO date or time");
  let as: Ctx;
  if (scope === "operator") {
    if (v.as === undefined) throw new UsageError("an operator key needs --as <operator email>");
    if (v.org !== undefined) throw new UsageError("operator keys belong to no organization: drop --org");
    const user = await ctx.db.user.findUnique({ where: { email: str(v.as)!.toLowerCase() } });
    if (!user?.isOperator) throw new UsageError(`${str(v.as)} is not an operator of this installation`);
    as = { ...ctx, actor: { type: "user", userId: user.id, isOperator: true } };
  } else {
    if (v.org === undefined) throw new UsageError("a read or write key needs --org");
    const org = await getOrganization(ctx, { ref: str(v.org)! });
    as = { ...ctx, organizationId: org.id };
  }
  const { managementKey, key } = await createManagementKey(as, { name: str(v.name)!, scope, expiresAt });
  return {
    human: [
      `Created ${key.scope} management key ${key.name} (${key.id})${key.organizationId ? ` for ${key.organizationId}` : ""}`,
      `Management key (shown once): ${managementKey}`,
    ].join("\n"),
    json: { ...mgmtKeyJson(key), management_key: managementKey },
  };
}

export async function mgmtKeyList(ctx: Ctx, v: Values, now = new Date()): Promise<Result> {
  if ((v.org === undefined) === (v.operator !== true))
    throw new UsageError("give exactly one of --org or --operator");
  const keys =
    v.operator === true
      ? await listManagementKeys(ctx, { owner: "operator" })
      : await listManagementKeys(
          { ...ctx, organizationId: (await getOrganization(ctx, { ref: str(v.org)! })).id },
          { owner: "organization" },
        );
  const status = (k: ManagementKeyDto) =>
    k.revokedAt ? "revoked" : k.expiresAt && new Date(k.expiresAt) <= now ? "expired" : "active";
  return {
    human: table(
      ["ID", "PREFIX", "NAME", "SCOPE", "STATUS", "LAST USED"],
      keys.map((k) => [k.id, k.prefix, k.name, k.scope, status(k), k.lastUsedAt ?? "never"]),
    ),
    json: keys.map(mgmtKeyJson),
  };
}

export async function mgmtKeyRevoke(ctx: Ctx, v: Values): Promise<Result> {
  const key = await revokeManagementKey(ctx, { keyId: str(v.key)! });
  return {
    human: `Revoked management key ${key.id} (${key.prefix}) at ${key.revokedAt}`,
    json: mgmtKeyJson(key),
  };
}

export async function planList(ctx: Ctx): Promise<Result> {
  return planListResult(await listPlans(ctx));
}

export async function orgSetPlan(ctx: Ctx, v: Values): Promise<Result> {
  const sub = await setOrganizationPlan(ctx, { organization: str(v.org)!, planSlug: str(v.plan)! });
  return planSetResult(sub);
}

/** `--value`: true/false, a whole number, or "unlimited" (null); the feature's type is checked by core. */
export function parseFeatureValue(raw: string): FeatureValue | string {
  const t = raw.trim().toLowerCase();
  if (t === "true" || t === "on") return true;
  if (t === "false" || t === "off") return false;
  if (t === "unlimited" || t === "null") return null;
  return /^-?\d+$/.test(t) ? Number(t) : raw;
}

function scopeOf(v: Values): { organization?: string; projectId?: string } {
  if ((v.org === undefined) === (v.project === undefined))
    throw new UsageError("give exactly one of --org or --project");
  return v.org !== undefined ? { organization: str(v.org) } : { projectId: str(v.project) };
}

function overrideJson(o: OverrideDto) {
  return {
    override_id: o.id,
    organization_id: o.organizationId,
    project_id: o.projectId,
    feature: o.featureKey,
    value: o.value,
    reason: o.reason,
    expires_at: o.expiresAt,
    created_at: o.createdAt,
  };
}

export async function overrideSet(ctx: Ctx, v: Values): Promise<Result> {
  const o = await setEntitlementOverride(ctx, {
    ...scopeOf(v),
    featureKey: str(v.feature)!,
    value: parseFeatureValue(str(v.value)!) as FeatureValue,
    reason: str(v.reason)!,
    expiresAt: v.expires === undefined ? null : (str(v.expires) as unknown as Date),
  });
  const where = o.projectId ? `project ${o.projectId}` : `organization ${o.organizationId}`;
  return {
    human: `Override set: ${o.featureKey} = ${JSON.stringify(o.value)} for ${where} (${o.reason}${o.expiresAt ? `, until ${o.expiresAt}` : ""})`,
    json: overrideJson(o),
  };
}

export async function overrideClear(ctx: Ctx, v: Values): Promise<Result> {
  const { cleared } = await clearEntitlementOverride(ctx, {
    ...scopeOf(v),
    featureKey: str(v.feature)!,
    reason: str(v.reason),
  });
  return {
    human: `Override cleared: ${cleared.featureKey} for ${cleared.projectId ? `project ${cleared.projectId}` : `organization ${cleared.organizationId}`}`,
    json: { cleared: overrideJson(cleared) },
  };
}

/** One plan's versions and features (`--plan`), or every plan's current version. */
export async function planShow(ctx: Ctx, v: Values): Promise<Result> {
  const slugs = v.plan !== undefined ? [str(v.plan)!] : (await listPlans(ctx)).map((p) => p.slug);
  const plans = await Promise.all(slugs.map((s) => getPlan(ctx, s)));
  const human = plans
    .map((p) => {
      const cur = p.versions[0];
      const head = `${p.name} (${p.slug}) v${cur?.version ?? 0}${p.archived ? " archived" : ""}: $${((cur?.priceCents ?? 0) / 100).toFixed(2)}/mo, ${p.subscriptionCount} subscribers (${p.pinnedCount} pinned)`;
      const rows = p.features.map((f) => {
        const val = cur?.entitlements[f.key];
        return `  ${f.key.padEnd(26)} ${f.type.padEnd(5)} ${val === null ? "unlimited" : String(val)}`;
      });
      return [head, ...rows].join("\n");
    })
    .join("\n\n");
  return {
    human,
    json: plans.map((p) => ({
      plan_id: p.id,
      slug: p.slug,
      name: p.name,
      archived: p.archived,
      subscription_count: p.subscriptionCount,
      pinned_count: p.pinnedCount,
      versions: p.versions.map((x) => ({
        version: x.version,
        price_cents: x.priceCents,
        entitlements: x.entitlements,
        change_note: x.changeNote,
        created_at: x.createdAt,
      })),
    })),
  };
}

export async function userCreate(ctx: Ctx, v: Values): Promise<Result> {
  const u = await createUserWithPassword(
    ctx,
    { email: str(v.email)!, name: str(v.name)!, password: str(v.password)!, operator: v.operator === true },
    hashPassword,
  );
  return {
    human: `Created ${u.isOperator ? "operator " : "user "}${u.name} <${u.email}> (${u.id})`,
    json: { user_id: u.id, email: u.email, name: u.name, operator: u.isOperator, created_at: u.createdAt },
  };
}

/** A one-time operator setup link (only while the installation has no operator). */
export async function operatorSetupLink(ctx: Ctx, publicUrl: string): Promise<Result> {
  const issued = await issueOperatorSetupToken(ctx);
  if (!issued) throw new UsageError("this installation already has an operator: no setup link is needed");
  const url = `${publicUrl.replace(/\/$/, "")}/setup/${issued.token}`;
  return {
    human: `${url}\nOne-time link to create the operator account; valid until ${issued.expiresAt.toISOString()}.`,
    json: { url, token: issued.token, expires_at: issued.expiresAt.toISOString() },
  };
}
