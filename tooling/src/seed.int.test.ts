import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "@breakwater/config";
import { hashApiKey, revokeApiKey, systemCtx } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolDeps } from "./deps";
import { seed } from "./seed";

const deps = createToolDeps(parseConfig(process.env), "seed-test");
const ctx = systemCtx(deps, "seed-test");
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "bw-seed-"));
});
afterAll(async () => {
  await deps.db.$disconnect();
  await rm(dataDir, { recursive: true, force: true });
});

describe("seed", () => {
  it("is idempotent: one demo org/project, and the stored key is reused while it works", async () => {
    const first = await seed(ctx, { dataDir });
    expect(first.plans).toEqual(expect.arrayContaining(["free", "solo", "team", "business"]));
    const fileKey = (await readFile(path.join(dataDir, "demo-key"), "utf8")).trim();
    expect(fileKey).toBe(first.demo!.apiKey);
    const pc = first.priceCatalogue;
    expect(pc.created + pc.refreshed + pc.unchanged + pc.keptOperatorEdits).toBeGreaterThan(0);
    expect(await deps.db.priceCard.count()).toBeGreaterThan(0);

    const second = await seed(ctx, { dataDir });
    expect(second.demo).toMatchObject({
      organizationId: first.demo!.organizationId,
      projectId: first.demo!.projectId,
      apiKey: first.demo!.apiKey,
      minted: false,
    });
    expect(await deps.db.organization.count({ where: { slug: "demo" } })).toBe(1);
    const projects = await deps.db.project.findMany({
      where: { organizationId: first.demo!.organizationId },
    });
    expect(projects.filter((p) => p.name === "demo")).toHaveLength(1);
    const demo = await deps.db.project.findUniqueOrThrow({
      where: { id: first.demo!.projectId },
      include: {
        budgetLimits: true,
        organization: { include: { subscription: { include: { plan: true } } } },
      },
    });
    expect(demo.mode).toBe("alert_only");
    expect(demo.budgetLimits.map((l) => [l.period, Number(l.limitUsd)])).toEqual([["monthly", 100]]);
    expect(demo.organization.subscription?.plan.slug).toBe("team");
  });

  it("with demo: false seeds plans and prices only and leaves the key file alone", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "bw-seed-plans-"));
    try {
      const r = await seed(ctx, { dataDir: dir, demo: false });
      expect(r.demo).toBeNull();
      expect(r.plans).toContain("team");
      await expect(readFile(path.join(dir, "demo-key"))).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("mints a new demo key when the file is missing, garbled, or its key was revoked", async () => {
    const demo = (await seed(ctx, { dataDir })).demo!;
    const file = path.join(dataDir, "demo-key");

    await rm(file);
    const afterMissing = await seed(ctx, { dataDir });
    expect(afterMissing.demo!.minted).toBe(true);
    expect(afterMissing.demo!.apiKey).not.toBe(demo.apiKey);

    await writeFile(file, "not a key\n");
    const afterGarbled = await seed(ctx, { dataDir });
    expect(afterGarbled.demo!.minted).toBe(true);

    const row = await deps.db.apiKey.findUniqueOrThrow({
      where: { hash: hashApiKey(afterGarbled.demo!.apiKey) },
    });
    await revokeApiKey(ctx, { keyId: row.id });
    const afterRevoke = await seed(ctx, { dataDir });
    expect(afterRevoke.demo!.minted).toBe(true);
    expect((await readFile(file, "utf8")).trim()).toBe(afterRevoke.demo!.apiKey);
  });
});
