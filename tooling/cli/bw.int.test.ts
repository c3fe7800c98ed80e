import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseConfig } from "@breakwater/config";
import { API_KEY_RE, hashApiKey, PROJECT_ID_RE } from "@breakwater/core";
import { createDb } from "@breakwater/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../src/paths";

// The CLI runs as a real child process with the test environment (test database) passed through,
// the way `npm run -s bw` runs it: tooling/cli/run.mjs rebuilds the bundles when a source changed
// and starts the front (tooling/dist/bw-fast.mjs: help and listings in plain SQL), which hands the
// other commands to the full CLI (tooling/dist/bw.mjs, its Redis/BullMQ/Svix drivers loaded on first use).
const cli = path.join(repoRoot, "tooling", "cli", "run.mjs");
const fullCli = path.join(repoRoot, "tooling", "dist", "bw.mjs");

function bw(...args: string[]) {
  return spawnBw(cli, args);
}

/** The Prisma-backed CLI itself, past the front: what the front's SQL reads must match. */
function bwFull(...args: string[]) {
  return spawnBw(fullCli, args);
}

function spawnBw(entry: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const res = spawnSync(process.execPath, [entry, ...args], { cwd: repoRoot, env, encoding: "utf8" });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

const db = createDb(parseConfig(process.env).DATABASE_URL);
// Built once up front, so no test's stderr carries the "building the CLI" line.
beforeAll(() => {
  expect(bw("help").code).toBe(0);
}, 120_000);
afterAll(() => db.$disconnect());

describe("bw project create --json", () => {
  it("prints exactly one JSON object with a project id and a key whose hash is stored", async () => {
    const r = bw(
      "project",
      "create",
      "--name",
      "cli-json",
      "--daily",
      "7.5",
      "--mode",
      "hard_deny",
      "--json",
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(out.project_id).toMatch(PROJECT_ID_RE);
    expect(out.api_key).toMatch(API_KEY_RE);
    expect(out).toMatchObject({
      name: "cli-json",
      mode: "hard_deny",
      limits: { daily: 7.5, weekly: null, monthly: null },
    });

    const row = await db.apiKey.findUnique({ where: { hash: hashApiKey(out.api_key as string) } });
    expect(row?.projectId).toBe(out.project_id);
    expect(row?.readOnly).toBe(false);
    const project = await db.project.findUniqueOrThrow({
      where: { id: out.project_id as string },
      include: { organization: { include: { subscription: { include: { plan: true } } } } },
    });
    // No --org: a fresh organization on the team plan.
    expect(project.organization.subscription?.plan.slug).toBe("team");
    expect(project.organizationId).toBe(out.organization_id);
  });

  it("adds projects to an existing organization addressed by slug", async () => {
    const slug = `cli-${Date.now().toString(36)}`;
    const org = bw("org", "create", "--name", "CLI org", "--plan", "solo", "--slug", slug, "--json");
    expect(org.code).toBe(0);
    const orgOut = JSON.parse(org.stdout) as { organization_id: string; plan: string };
    expect(orgOut.plan).toBe("solo");
    const p = bw("project", "create", "--org", slug, "--name", "api", "--json");
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout).organization_id).toBe(orgOut.organization_id);
    const list = bw("project", "list", "--org", orgOut.organization_id, "--json");
    expect(JSON.parse(list.stdout).map((x: { name: string }) => x.name)).toEqual(["api"]);
  });

  it("stays parseable through `npm run bw` (npm's banner precedes it; the JSON is the last line)", () => {
    const res = spawnSync("npm", ["run", "bw", "--", "project", "create", "--name", "via-npm", "--json"], {
      cwd: repoRoot,
      env: process.env,
      encoding: "utf8",
    });
    expect(res.status).toBe(0);
    const last = res.stdout.trim().split("\n").at(-1)!;
    expect(JSON.parse(last).project_id).toMatch(PROJECT_ID_RE);
  });
});

describe("bw keys", () => {
  it("creates a read-only key, lists it without the secret, and revokes it", async () => {
    const p = JSON.parse(bw("project", "create", "--name", "keys", "--json").stdout) as {
      project_id: string;
    };
    const k = bw("key", "create", "--project", p.project_id, "--read-only", "--name", "dashboards", "--json");
    expect(k.code).toBe(0);
    const key = JSON.parse(k.stdout) as { key_id: string; api_key: string; read_only: boolean };
    expect(key.read_only).toBe(true);
    expect(key.api_key).toMatch(API_KEY_RE);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.key_id } });
    expect(row.readOnly).toBe(true);
    expect(row.hash).toBe(hashApiKey(key.api_key));

    const list = bw("key", "list", "--project", p.project_id, "--json");
    expect(list.stdout).not.toContain(key.api_key);
    const keys = JSON.parse(list.stdout) as { key_id: string; read_only: boolean }[];
    expect(keys.map((x) => x.read_only).sort()).toEqual([false, true]);

    const revoked = bw("key", "revoke", "--key", key.key_id, "--json");
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.key_id } })).revokedAt).not.toBeNull();
  });
});

describe("bw budget", () => {
  it("shows a project's budget, changes only what is given, and keeps at least one limit", async () => {
    const p = JSON.parse(bw("project", "create", "--name", "budget", "--monthly", "80", "--json").stdout) as {
      project_id: string;
    };
    const shown = bw("budget", "show", "--project", p.project_id, "--json");
    expect(shown.code).toBe(0);
    const before = JSON.parse(shown.stdout) as { thresholds: number[] };
    const set = bw(
      "budget",
      "set",
      "--project",
      p.project_id,
      "--mode",
      "hard_deny",
      "--daily",
      "4",
      "--run-cap",
      "1.5",
      "--json",
    );
    expect(set.stderr).toBe("");
    expect(JSON.parse(set.stdout)).toEqual({
      project_id: p.project_id,
      mode: "hard_deny",
      limits: { daily: 4, weekly: null, monthly: 80 },
      thresholds: before.thresholds,
      run_spend_cap_usd: 1.5,
    });
    const row = await db.project.findUniqueOrThrow({ where: { id: p.project_id } });
    expect(row.mode).toBe("hard_deny");
    expect(bw("budget", "show", "--project", p.project_id).stdout).toContain("run cap     $1.5");

    const none = bw("budget", "set", "--project", p.project_id, "--clear", "daily,monthly");
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^bw: limits: Keep at least one period limit/);
  });

  it("key revoke --project refuses a key of another project", () => {
    const a = JSON.parse(bw("project", "create", "--name", "a", "--json").stdout) as { key_id: string };
    const b = JSON.parse(bw("project", "create", "--name", "b", "--json").stdout) as { project_id: string };
    const r = bw("key", "revoke", "--key", a.key_id, "--project", b.project_id);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("bw: API key not found");
  });
});

describe("bw mgmt-key", () => {
  it("creates a write key for an organization, lists it without the secret, and revokes it", async () => {
    const org = JSON.parse(bw("org", "create", "--name", "Mgmt CLI", "--plan", "team", "--json").stdout) as {
      organization_id: string;
    };
    const made = bw(
      "mgmt-key",
      "create",
      "--org",
      org.organization_id,
      "--name",
      "ci",
      "--scope",
      "write",
      "--json",
    );
    expect(made.code).toBe(0);
    const out = JSON.parse(made.stdout) as { key_id: string; management_key: string; scope: string };
    expect(out.management_key).toMatch(/^sk_mgmt_[0-9a-f]{64}$/);
    expect(out.scope).toBe("write");
    const row = await db.managementKey.findUnique({ where: { hash: hashApiKey(out.management_key) } });
    expect(row?.organizationId).toBe(org.organization_id);

    const list = bw("mgmt-key", "list", "--org", org.organization_id);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(out.key_id);
    expect(list.stdout).toContain("active");
    expect(list.stdout).not.toContain(out.management_key);

    const revoked = bw("mgmt-key", "revoke", "--key", out.key_id, "--json");
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).not.toBeNull();
    expect(bw("mgmt-key", "list", "--org", org.organization_id).stdout).toContain("revoked");
  });

  it("an operator key needs an operator to act for; wrong combinations exit 2", () => {
    const noAs = bw("mgmt-key", "create", "--name", "billing", "--scope", "operator");
    expect(noAs.code).toBe(2);
    expect(noAs.stderr).toMatch(/--as/);
    const notOp = bw(
      "mgmt-key",
      "create",
      "--name",
      "billing",
      "--scope",
      "operator",
      "--as",
      "nobody@example.test",
    );
    expect(notOp.code).toBe(2);
    expect(bw("mgmt-key", "create", "--name", "ci", "--scope", "read").code).toBe(2);
    expect(bw("mgmt-key", "list").code).toBe(2);
  });
});

describe("bw bad input", () => {
  const cases: [string, string[], RegExp][] = [
    ["no command", [], /missing command/],
    ["unknown command", ["frobnicate"], /unknown command "frobnicate"/],
    ["missing --name", ["project", "create", "--json"], /missing --name/],
    ["flag without value", ["project", "create", "--name"], /--name needs a value/],
    [
      "not an amount",
      ["project", "create", "--name", "x", "--daily", "ten"],
      /--daily must be a positive amount/,
    ],
    [
      "negative amount",
      ["project", "create", "--name", "x", "--monthly", "-5"],
      /--monthly must be a positive amount/,
    ],
    [
      "unknown plan",
      ["org", "create", "--name", "x", "--plan", "gold"],
      /--plan must be one of free, solo, team, business/,
    ],
    ["unknown mode", ["project", "create", "--name", "x", "--mode", "panic"], /--mode must be one of/],
    ["unknown flag", ["key", "list", "--project", "p", "--all"], /unknown flag --all/],
    ["stray argument", ["org", "list", "extra"], /unexpected argument "extra"/],
  ];
  for (const [label, args, message] of cases) {
    it(`${label}: exit 2, one line on stderr, nothing on stdout`, () => {
      const r = bw(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    });
  }

  it("a refusal from the domain exits 1 with its message", () => {
    const r = bw("project", "create", "--org", "org_000000000000000000000000", "--name", "x", "--json");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe("bw: Organization not found");
  });

  it("a bad environment variable exits 2 naming it", () => {
    const res = spawnSync(process.execPath, [cli, "org", "list"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: "mysql://nope" },
      encoding: "utf8",
    });
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toMatch(/^bw: Invalid configuration: DATABASE_URL /);
  });
});

describe("bw plan list (answered by the front in SQL)", () => {
  it("prints what core's listPlans gives the full CLI, byte for byte, in both forms", async () => {
    // A plan that exercises the read: an older and a newer version (the newer, partial, wins), archived.
    const planId = `plan_cli${Date.now().toString(36)}`;
    await db.plan.create({
      data: {
        id: planId,
        slug: `cli-${Date.now().toString(36)}`,
        name: "CLI read",
        archivedAt: new Date(),
        versions: {
          create: [
            {
              id: `${planId}_v1`,
              version: 1,
              priceCents: 100,
              entitlements: { create: [{ featureKey: "max_projects", value: 2 }] },
            },
            {
              id: `${planId}_v2`,
              version: 2,
              priceCents: 25_000,
              entitlements: {
                create: [
                  { featureKey: "retention_days", value: 30 },
                  { featureKey: "max_projects", value: null as never },
                  { featureKey: "failover_tuning", value: true },
                ],
              },
            },
          ],
        },
      },
    });
    try {
      for (const form of [["--json"], []]) {
        const front = bw("plan", "list", ...form);
        const full = bwFull("plan", "list", ...form);
        expect(front.code).toBe(0);
        expect(full.stderr).toBe("");
        expect(front.stdout).toBe(full.stdout);
      }
      const listed = JSON.parse(bw("plan", "list", "--json").stdout) as Record<string, unknown>[];
      expect(listed.find((p) => p.plan_id === planId)).toEqual({
        plan_id: planId,
        slug: expect.stringMatching(/^cli-/),
        name: "CLI read",
        version: 2,
        price_cents: 25_000,
        entitlements: { failover_tuning: true, max_projects: null, retention_days: 30 },
        subscription_count: 0,
        archived: true,
      });
    } finally {
      await db.plan.delete({ where: { id: planId } });
    }
  });

  it("a bad DATABASE_URL exits 2 naming it; an unreachable database exits 1 saying where", () => {
    const bad = spawnBw(cli, ["plan", "list"], { ...process.env, DATABASE_URL: "mysql://nope" });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim()).toBe(
      "bw: Invalid configuration: DATABASE_URL must be a URL with scheme postgres or postgresql",
    );
    const down = spawnBw(cli, ["plan", "list", "--json"], {
      ...process.env,
      DATABASE_URL: "postgresql://postgres@127.0.0.1:1/breakwater",
    });
    expect(down.code).toBe(1);
    expect(down.stdout).toBe("");
    expect(down.stderr.trim()).toBe(
      "bw: cannot reach Postgres at 127.0.0.1:1/breakwater (ECONNREFUSED); start it or set DATABASE_URL",
    );
  });
});

describe("bw org, project and key list (answered by the front in SQL)", () => {
  /** The front's answer and the full CLI's, both forms: the same bytes and exit code. */
  function expectSameAnswer(...args: string[]) {
    for (const form of [["--json"], []]) {
      const front = bw(...args, ...form);
      const full = bwFull(...args, ...form);
      expect({ code: front.code, stdout: front.stdout, stderr: front.stderr }).toEqual({
        code: full.code,
        stdout: full.stdout,
        stderr: full.stderr,
      });
    }
  }

  it("prints what core's listings give the full CLI, byte for byte, in both forms", async () => {
    const slug = `lists-${Date.now().toString(36)}`;
    const created = JSON.parse(
      bw("project", "create", "--name", "lists a", "--daily", "7.5", "--monthly", "120.25", "--json").stdout,
    ) as { project_id: string; organization_id: string; organization_slug: string; key_id: string };
    expect(bw("org", "create", "--name", "Lists", "--slug", slug, "--plan", "solo").code).toBe(0);
    // A second project (no daily limit), an archived one, a read-only key, a revoked key, a used key.
    const second = JSON.parse(
      bw(
        "project",
        "create",
        "--org",
        created.organization_id,
        "--name",
        "lists b",
        "--weekly",
        "3",
        "--json",
      ).stdout,
    ) as { project_id: string };
    const archived = JSON.parse(
      bw("project", "create", "--org", created.organization_slug, "--name", "lists gone", "--json").stdout,
    ) as { project_id: string };
    await db.project.update({ where: { id: archived.project_id }, data: { archivedAt: new Date() } });
    const readOnly = JSON.parse(
      bw("key", "create", "--project", created.project_id, "--name", "ro", "--read-only", "--json").stdout,
    ) as { key_id: string };
    const revoked = JSON.parse(
      bw("key", "create", "--project", created.project_id, "--name", "old", "--json").stdout,
    ) as { key_id: string };
    expect(bw("key", "revoke", "--key", revoked.key_id).code).toBe(0);
    await db.apiKey.update({ where: { id: readOnly.key_id }, data: { lastUsedAt: new Date() } });

    expectSameAnswer("org", "list");
    expectSameAnswer("project", "list", "--org", created.organization_id);
    expectSameAnswer("project", "list", "--org", created.organization_slug.toUpperCase());
    expectSameAnswer("project", "list", "--org", slug); // no projects: "(none)" and []
    expectSameAnswer("key", "list", "--project", created.project_id);
    expectSameAnswer("key", "list", "--project", second.project_id);

    const orgs = JSON.parse(bw("org", "list", "--json").stdout) as Record<string, unknown>[];
    expect(orgs.find((o) => o.organization_id === created.organization_id)).toMatchObject({
      plan: "team",
      project_count: 3, // the archived project counts, as in core's listing
    });
    expect(orgs.find((o) => o.slug === slug)).toMatchObject({ plan: "solo", project_count: 0 });
    const projects = JSON.parse(
      bw("project", "list", "--org", created.organization_id, "--json").stdout,
    ) as Record<string, unknown>[];
    expect(projects.map((p) => p.project_id)).toEqual([created.project_id, second.project_id]);
    expect(projects[0]).toMatchObject({ limits: { daily: 7.5, weekly: null, monthly: 120.25 } });
    const keys = JSON.parse(bw("key", "list", "--project", created.project_id, "--json").stdout) as Record<
      string,
      unknown
    >[];
    expect(keys.map((k) => k.key_id)).toEqual([created.key_id, readOnly.key_id, revoked.key_id]);
    expect(keys[1]).toMatchObject({ read_only: true, last_used_at: expect.stringMatching(/Z$/) });
    expect(keys[2]!.revoked_at).toEqual(expect.stringMatching(/Z$/));

    // The front answered these itself: the full CLI refuses a configuration the front never reads.
    const odd = { ...process.env, LOG_LEVEL: "nope" };
    expect(spawnBw(fullCli, ["org", "list"], odd).code).toBe(2);
    for (const args of [
      ["org", "list"],
      ["project", "list", "--org", created.organization_id],
      ["key", "list", "--project", created.project_id],
    ]) {
      expect(spawnBw(cli, args, odd)).toMatchObject({ code: 0, stderr: "" });
    }
  });

  it("refuses as the full CLI does: unknown or blank organization, unknown or archived project", async () => {
    expectSameAnswer("project", "list", "--org", "org_does_not_exist");
    expectSameAnswer("project", "list", "--org", "no-such-slug");
    expectSameAnswer("project", "list", "--org", "  ");
    expectSameAnswer("key", "list", "--project", "proj_does_not_exist");
    const gone = JSON.parse(bw("project", "create", "--name", "gone", "--json").stdout) as {
      project_id: string;
    };
    await db.project.update({ where: { id: gone.project_id }, data: { archivedAt: new Date() } });
    expectSameAnswer("key", "list", "--project", gone.project_id);
    const r = bw("project", "list", "--org", "no-such-slug");
    expect(r).toMatchObject({ code: 1, stdout: "", stderr: "bw: Organization not found\n" });
    expect(bw("project", "list", "--org", "  ")).toMatchObject({ code: 2, stdout: "" });
  });
});

describe("bw operator commands", () => {
  it("set-plan, override set/clear and plan show go through core's validation and audit", async () => {
    const slug = `ops-${Date.now().toString(36)}`;
    expect(bw("org", "create", "--name", "Ops CLI", "--slug", slug, "--json").code).toBe(0);
    const moved = bw("org", "set-plan", "--org", slug, "--plan", "team", "--json");
    expect(moved.code).toBe(0);
    const org = JSON.parse(moved.stdout) as { organization_id: string; plan: string; pinned_version: null };
    expect(org).toMatchObject({ plan: "team", pinned_version: null });

    const past = bw(
      "override",
      "set",
      "--org",
      slug,
      "--feature",
      "failover_tuning",
      "--value",
      "true",
      "--reason",
      "late",
      "--expires",
      "2020-01-01T00:00:00Z",
      "--json",
    );
    expect(past.code).toBe(1);
    expect(past.stdout).toBe("");
    expect(past.stderr).toMatch(/expiresAt: The expiry is in the past/);
    const wrongType = bw(
      "override",
      "set",
      "--org",
      slug,
      "--feature",
      "max_projects",
      "--value",
      "yes",
      "--reason",
      "x",
    );
    expect(wrongType.code).toBe(1);
    expect(wrongType.stderr).toMatch(/max_projects must be a whole number/);
    expect(
      bw("override", "set", "--feature", "failover_tuning", "--value", "true", "--reason", "x").stderr,
    ).toMatch(/exactly one of --org or --project/);
    expect(await db.entitlementOverride.count({ where: { organizationId: org.organization_id } })).toBe(0);

    const set = bw(
      "override",
      "set",
      "--org",
      slug,
      "--feature",
      "failover_tuning",
      "--value",
      "false",
      "--reason",
      "incident 7",
      "--json",
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      feature: "failover_tuning",
      value: false,
      reason: "incident 7",
    });
    const cleared = bw("override", "clear", "--org", slug, "--feature", "failover_tuning", "--json");
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout).cleared).toMatchObject({ value: false });

    const audits = await db.auditEvent.findMany({
      where: { organizationId: org.organization_id },
      orderBy: { createdAt: "asc" },
    });
    expect(audits.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
      ["organization.create", "system", "cli"],
      ["subscription.change_plan", "system", "cli"],
      ["entitlement_override.set", "system", "cli"],
      ["entitlement_override.clear", "system", "cli"],
    ]);

    const shown = bw("plan", "show", "--plan", "team", "--json");
    expect(shown.code).toBe(0);
    const [team] = JSON.parse(shown.stdout) as {
      slug: string;
      versions: { entitlements: Record<string, unknown> }[];
    }[];
    expect(team?.slug).toBe("team");
    expect(team?.versions[0]?.entitlements).toHaveProperty("failover_tuning");
  }, 240_000); // eight CLI processes

  it("user create makes a password account, an operator with --operator, and refuses a duplicate", async () => {
    const email = `op-${Date.now().toString(36)}@example.test`;
    const r = bw(
      "user",
      "create",
      "--email",
      email,
      "--name",
      "Olga",
      "--password",
      "correct horse",
      "--operator",
      "--json",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { user_id: string; operator: boolean };
    expect(out.operator).toBe(true);
    const user = await db.user.findUniqueOrThrow({ where: { email }, include: { accounts: true } });
    expect(user.isOperator).toBe(true);
    expect(user.accounts).toHaveLength(1);
    expect(user.accounts[0]?.providerId).toBe("credential");
    expect(user.accounts[0]?.password).not.toContain("correct horse");
    expect(
      await db.auditEvent.count({ where: { targetId: user.id, action: "user.create", actorId: "cli" } }),
    ).toBe(1);

    const again = bw("user", "create", "--email", email, "--name", "Olga", "--password", "correct horse");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const short = bw("user", "create", "--email", `x-${email}`, "--name", "X", "--password", "short");
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
  }, 120_000);
});
