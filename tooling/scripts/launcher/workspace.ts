/** What the checkout contains (apps may land later than the launcher) and whether builds are current. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface Workspace {
  name: string;
  dir: string;
  scripts: Record<string, string>;
}

/** Workspace packages under apps/ and packages/ with their scripts. */
export function listWorkspaces(root: string): Workspace[] {
  const out: Workspace[] = [];
  for (const group of ["apps", "packages"]) {
    const base = path.join(root, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base)) {
      const file = path.join(base, entry, "package.json");
      if (!existsSync(file)) continue;
      try {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as {
          name?: string;
          scripts?: Record<string, string>;
        };
        if (pkg.name) out.push({ name: pkg.name, dir: path.dirname(file), scripts: pkg.scripts ?? {} });
      } catch {
        // a half-written package.json is not a workspace yet
      }
    }
  }
  return out;
}

/** The Next app exists (has an App Router directory), not just a package.json placeholder. */
export function hasNextApp(webDir: string): boolean {
  return ["app", "src/app"].some((d) => existsSync(path.join(webDir, d)));
}

const IGNORED = new Set([
  "node_modules",
  ".next",
  ".turbo",
  "e2e",
  "test-results",
  "playwright-report",
  "coverage",
  "dist",
]);

/** Newest modification time among the files under `dir` (skipping build output and tests). */
export function newestMtime(dir: string): number {
  let newest = 0;
  const walk = (d: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (IGNORED.has(e.name)) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !/\.(test|spec)\.tsx?$/.test(e.name))
        newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(dir);
  return newest;
}

/**
 * Why the web app needs a production build, or null when `.next` is newer than every source it is
 * built from (the app, the workspace packages it bundles, the schema and the lockfile).
 */
export function webBuildReason(root: string, webDir: string): string | null {
  const buildId = path.join(webDir, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return "no production build yet";
  const built = statSync(buildId).mtimeMs;
  const sources = [
    webDir,
    ...listWorkspaces(root)
      .filter((w) => w.dir.startsWith(path.join(root, "packages")))
      .map((w) => w.dir),
    path.join(root, "prisma", "schema.prisma"),
    path.join(root, "package-lock.json"),
  ];
  for (const s of sources) {
    if (!existsSync(s)) continue;
    const m = statSync(s).isDirectory() ? newestMtime(s) : statSync(s).mtimeMs;
    if (m > built) return `${path.relative(root, s) || s} changed since the last build`;
  }
  return null;
}

/** Why a package's `dist/` build is missing or older than the workspace packages it bundles, else null. */
export function distBuildReason(root: string, pkgDir: string): string | null {
  const dist = path.join(pkgDir, "dist");
  const built = existsSync(dist) ? newestMtime(dist) : 0;
  if (built === 0) return "no build yet";
  const own = path.join(pkgDir, "src");
  if (existsSync(own) && newestMtime(own) > built)
    return `${path.relative(root, own)} changed since the last build`;
  for (const w of listWorkspaces(root).filter((x) => x.dir.startsWith(path.join(root, "packages")))) {
    const src = path.join(w.dir, "src");
    if (existsSync(src) && newestMtime(src) > built)
      return `${path.relative(root, src)} changed since the last build`;
  }
  return null;
}

/** True when the generated Prisma client is missing or older than the schema. */
export function prismaClientStale(root: string): boolean {
  const client = path.join(root, "packages", "db", "src", "generated", "prisma", "client.ts");
  if (!existsSync(client)) return true;
  return statSync(path.join(root, "prisma", "schema.prisma")).mtimeMs > statSync(client).mtimeMs;
}
