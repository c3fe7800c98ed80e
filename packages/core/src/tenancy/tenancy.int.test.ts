import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { API_KEY_RE, hashApiKey } from "../api-keys/api-key-format";
import { createApiKey } from "../api-keys/create-api-key";
import { type Ctx, systemCtx } from "../context";
import { DomainError } from "../errors";
import { createOrganization } from "./create-organization";
import { createProject } from "./create-project";
import { getProject } from "./list-tenancy";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const sys = systemCtx({ db, config, log: pino({ level: "silent" }) });
afterAll(() => db.$disconnect());

describe("tenancy", () => {
  it("creates an organization, a project and a key; the key is stored hashed", async () => {
    const org = await createOrganization(sys, { name: `Acme ${Date.now()}`, planSlug: "team" });
    const project = await createProject(sys, { organizationId: org.id, name: "api", limits: { daily: 5 } });
    expect(project.id).toMatch(/^proj_[0-9a-f]{24}$/);
    const { apiKey, key } = await createApiKey(sys, { projectId: project.id, readOnly: true });
    expect(apiKey).toMatch(API_KEY_RE);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toBe(hashApiKey(apiKey));
    expect(row.readOnly).toBe(true);
    expect(JSON.stringify(row)).not.toContain(apiKey);
    const audits = await db.auditEvent.findMany({ where: { organizationId: org.id } });
    expect(audits.map((a) => a.action).sort()).toEqual([
      "api_key.create",
      "organization.create",
      "project.create",
    ]);
  });

  it("enforces max_projects from the plan", async () => {
    const org = await createOrganization(sys, { name: `Free ${Date.now()}`, planSlug: "free" });
    await createProject(sys, { organizationId: org.id, name: "one" });
    await expect(createProject(sys, { organizationId: org.id, name: "two" })).rejects.toMatchObject({
      code: "LIMIT_EXCEEDED",
    });
  });

  it("hides another tenant's project as NOT_FOUND", async () => {
    const a = await createOrganization(sys, { name: `A ${Date.now()}`, planSlug: "team" });
    const b = await createOrganization(sys, { name: `B ${Date.now()}`, planSlug: "team" });
    const p = await createProject(sys, { organizationId: a.id, name: "secret" });
    const asB: Ctx = {
      ...sys,
      actor: { type: "user", userId: "user_x", isOperator: false },
      organizationId: b.id,
      role: "owner",
    };
    const err = await getProject(asB, p.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe("NOT_FOUND");
  });
});
