import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  API_KEY_RE,
  type Ctx,
  createApiKey,
  createOrganization,
  createProject,
  hashApiKey,
  listProjects,
  resealWebhookSecrets,
  type SeedPriceCatalogueResult,
  seedDefaultPlans,
  seedPriceCatalogue,
} from "@breakwater/core";

export const DEMO_ORG_SLUG = "demo";
export const DEMO_PROJECT_NAME = "demo";

export interface SeedResult {
  plans: string[];
  /** Price cards created / refreshed / left alone (operator edits are never overwritten). */
  priceCatalogue: SeedPriceCatalogueResult;
  /** Null when seeded with `demo: false`. */
  demo: {
    organizationId: string;
    projectId: string;
    apiKey: string;
    keyFile: string;
    /** True when this run minted the key (first seed, or the stored key was no longer valid). */
    minted: boolean;
  } | null;
}

/**
 * Brings a migrated database to a usable state: the default plans and features, the price
 * catalogue, and (unless `demo: false`) a demo organization "Demo" (plan team) with project "demo"
 * ($100 monthly, alert_only) and a working key. Idempotent: re-running changes nothing that exists.
 * Keys are stored hashed, so the demo key's plaintext lives in `<dataDir>/demo-key` and is reused
 * while the database still accepts it; otherwise a new demo key is minted and the file rewritten.
 */
export async function seed(ctx: Ctx, opts: { dataDir: string; demo?: boolean }): Promise<SeedResult> {
  // Webhook secrets stored in plain text (before encryption) or under an older key are sealed
  // with SECRETS_ENCRYPTION_KEY; this runs on every `npm start`, `bw seed` and the compose migrate job.
  const secrets = await resealWebhookSecrets(ctx);
  if (secrets.resealed > 0)
    ctx.log.info({ rows: secrets.resealed }, "webhook secrets sealed with the current key");
  if (secrets.unreadable.length > 0)
    ctx.log.warn(
      { endpoints: secrets.unreadable },
      "webhook secrets sealed with a key that is not configured (add it to SECRETS_ENCRYPTION_OLD_KEYS)",
    );
  await seedDefaultPlans(ctx.db);
  const plans = (await ctx.db.plan.findMany({ select: { slug: true } })).map((p) => p.slug);

  const priceCatalogue = await seedPriceCatalogue(ctx.db);
  if (opts.demo === false) return { plans, priceCatalogue, demo: null };

  const org =
    (await ctx.db.organization.findUnique({ where: { slug: DEMO_ORG_SLUG } })) ??
    (await createOrganization(ctx, { name: "Demo", slug: DEMO_ORG_SLUG, planSlug: "team" }));
  const project =
    (await listProjects(ctx, org.id)).find((p) => p.name === DEMO_PROJECT_NAME) ??
    (await createProject(ctx, {
      organizationId: org.id,
      name: DEMO_PROJECT_NAME,
      mode: "alert_only",
      limits: { monthly: 100 },
    }));

  const keyFile = path.join(opts.dataDir, "demo-key");
  let apiKey = await readKeyFile(keyFile);
  let minted = false;
  if (!apiKey || !(await isUsableKey(ctx, apiKey, project.id))) {
    apiKey = (await createApiKey(ctx, { projectId: project.id, name: "Demo key" })).apiKey;
    await writeKeyFile(keyFile, apiKey);
    minted = true;
  }
  return {
    plans,
    priceCatalogue,
    demo: { organizationId: org.id, projectId: project.id, apiKey, keyFile, minted },
  };
}

async function readKeyFile(file: string): Promise<string | null> {
  try {
    const key = (await readFile(file, "utf8")).trim();
    return API_KEY_RE.test(key) ? key : null;
  } catch {
    return null;
  }
}

/** The stored demo key still authenticates the demo project (same database, not revoked or expired). */
async function isUsableKey(ctx: Ctx, apiKey: string, projectId: string): Promise<boolean> {
  const row = await ctx.db.apiKey.findUnique({ where: { hash: hashApiKey(apiKey) } });
  return (
    row !== null &&
    row.projectId === projectId &&
    row.revokedAt === null &&
    !row.readOnly &&
    (row.expiresAt === null || row.expiresAt > new Date())
  );
}

async function writeKeyFile(file: string, apiKey: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // Write then rename so a crash never leaves a half-written key behind; 0600 because it is a secret.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${apiKey}\n`, { mode: 0o600 });
  await rename(tmp, file);
}
