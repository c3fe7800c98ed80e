import { spawn, spawnSync } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import { API_KEY_RE, hashApiKey, PROJECT_ID_RE } from "@breakwater/core";
import {
  createManageTenant,
  type ManageHarness,
  type ManageTenant,
  startManageHarness,
} from "@breakwater/manage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../src/paths";

// Remote mode end to end: the management API served by node:http as server.mjs serves it (the
// manage harness), and the CLI as a child process the way `npm run bw` starts it, with a database
// URL that reaches nothing, so every answer below came over HTTP.
const cli = path.join(repoRoot, "tooling", "cli", "run.mjs");
const NO_DATABASE = "postgresql://nobody@127.0.0.1:9/nowhere";

/** Runs bw without blocking this process's event loop (the API under test answers from it). */
function bw(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: NO_DATABASE, BREAKWATER_URL: undefined, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let h: ManageHarness;
let t: ManageTenant;
let origin: string;
const as = (token: string) => ({ BREAKWATER_TOKEN: token });

beforeAll(async () => {
  // Built once up front, so no test's stderr carries the "building the CLI" line.
  expect(spawnSync(process.execPath, [cli, "help"], { cwd: repoRoot }).status).toBe(0);
  h = await startManageHarness();
  t = await createManageTenant(h);
  origin = new URL(h.api).origin;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe("bw --url (remote mode, through the management API)", () => {
  it("project create and project list go to the key's organization over HTTP", async () => {
    const made = await bw(
      [
        "--url",
        origin,
        "project",
        "create",
        "--name",
        "remote-x",
        "--daily",
        "7.5",
        "--mode",
        "hard_deny",
        "--json",
      ],
      as(t.write),
    );
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const out = JSON.parse(made.stdout) as Record<string, unknown>;
    expect(out.project_id).toMatch(PROJECT_ID_RE);
    expect(out.api_key).toMatch(API_KEY_RE);
    expect(out).toMatchObject({
      organization_id: t.organizationId,
      organization_slug: null,
      name: "remote-x",
      mode: "hard_deny",
      limits: { daily: 7.5, weekly: null, monthly: null },
    });
    const key = await h.db.apiKey.findUnique({ where: { hash: hashApiKey(out.api_key as string) } });
    expect(key?.projectId).toBe(out.project_id);

    // The API's own URL works as well as the dashboard's; BREAKWATER_URL as well as --url.
    const listed = await bw(["project", "list", "--json", "--url", h.api], as(t.read));
    expect(listed.code).toBe(0);
    const projects = JSON.parse(listed.stdout) as { project_id: string; organization_id: string }[];
    expect(projects.map((p) => p.project_id)).toEqual([t.projectId, out.project_id]);
    const human = await bw(["project", "list"], { ...as(t.read), BREAKWATER_URL: origin });
    expect(human.code).toBe(0);
    expect(human.stdout.split("\n")[0]).toMatch(/^ID\s+NAME\s+MODE\s+LIMITS$/);
    expect(human.stdout).toMatch(
      new RegExp(`^${out.project_id}\\s+remote-x\\s+hard_deny\\s+daily \\$7\\.5$`, "m"),
    );
  });

  it("mints, lists and revokes SDK keys, and shows and changes a budget", async () => {
    const p = ["--project", t.projectId];
    const made = await bw(
      ["--url", origin, "key", "create", ...p, "--name", "ro", "--read-only", "--json"],
      as(t.write),
    );
    expect(made.code).toBe(0);
    const key = JSON.parse(made.stdout) as { key_id: string; api_key: string; read_only: boolean };
    expect(key).toMatchObject({ read_only: true, api_key: expect.stringMatching(API_KEY_RE) });

    const list = await bw(["--url", origin, "key", "list", ...p, "--json"], as(t.read));
    expect(list.stdout).not.toContain(key.api_key);
    expect((JSON.parse(list.stdout) as { key_id: string }[]).map((k) => k.key_id)).toContain(key.key_id);

    const revoked = await bw(
      ["--url", origin, "key", "revoke", "--key", key.key_id, ...p, "--json"],
      as(t.write),
    );
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));

    const set = await bw(
      ["--url", origin, "budget", "set", ...p, "--weekly", "30", "--thresholds", "90,50", "--json"],
      as(t.write),
    );
    expect(set.stderr).toBe("");
    expect(JSON.parse(set.stdout)).toEqual({
      project_id: t.projectId,
      mode: "alert_only",
      limits: { daily: null, weekly: 30, monthly: 50 },
      thresholds: [50, 90],
      run_spend_cap_usd: null,
    });
    const shown = await bw(["--url", origin, "budget", "show", ...p], as(t.read));
    expect(shown.stdout).toContain("limits      weekly $30, monthly $50");
  });

  it("prints a problem's title, detail, status and type, and exits 1", async () => {
    const r = await bw(["--url", origin, "project", "create", "--name", "nope"], as(t.read));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^bw: This key may not do that.* \(403 urn:breakwater:problem:forbidden\)\n$/);

    const missing = await bw(["--url", origin, "budget", "show", "--project", "proj_nope"], as(t.read));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("(404 urn:breakwater:problem:not-found)");

    const sdkKey = await bw(["--url", origin, "project", "list"], as(`sk_mgmt_${"0".repeat(64)}`));
    expect(sdkKey.code).toBe(1);
    expect(sdkKey.stderr).toContain("(401 urn:breakwater:problem:unauthorized)");
  });

  it.each([
    [["mgmt-key", "list", "--org", "x"], /^bw: "mgmt-key list" needs the database: .*Settings → API access/],
    [["org", "list"], /^bw: "org list" needs the database/],
    [["project", "list", "--org", "acme"], /^bw: --org is not used with --url/],
    [["key", "revoke", "--key", "key_1"], /^bw: missing --project .* with --url/],
  ])("%j with --url: exit 2 naming what is wrong", async (args, message) => {
    const r = await bw(["--url", origin, ...args], as(t.read));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("refuses a missing or non-management token and an unreachable URL", async () => {
    const none = await bw(["--url", origin, "project", "list"], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^bw: BREAKWATER_TOKEN is not set/);
    const sdk = await bw(["--url", origin, "project", "list"], as(t.sdkKey));
    expect(sdk.code).toBe(2);
    expect(sdk.stderr).toContain("it holds an SDK key");
    const bad = await bw(["--url", "dashboard", "project", "list"], as(t.read));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bw: --url: not a URL: "dashboard"/);
    // A port that was free a moment ago: nothing listens there.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = await bw(["--url", `http://127.0.0.1:${closed}`, "project", "list"], as(t.read));
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(
      `bw: cannot reach the management API at http://127.0.0.1:${closed} (ECONNREFUSED)\n`,
    );
  });
});
