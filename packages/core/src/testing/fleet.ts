import { parseConfig, processEnv } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { type Deps, systemCtx } from "../context";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";

/** Deps on the test database (from the vitest env) with overridable config. */
export function testDeps(overrides: Record<string, string> = {}): Deps {
  const config = parseConfig({ ...processEnv(), ...overrides });
  return { db: createDb(config.DATABASE_URL, { max: 20 }), config, log: pino({ level: "silent" }) };
}

/** A fresh organization on `planSlug` with one project; unique names so tests never collide. */
export async function seedProject(deps: Deps, planSlug = "team") {
  const sys = systemCtx(deps);
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const org = await createOrganization(sys, { name: `Fleet ${suffix}`, planSlug });
  const project = await createProject(sys, { organizationId: org.id, name: `svc-${suffix}` });
  return { org, project };
}
