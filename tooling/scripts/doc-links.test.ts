import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../src/paths";
import { anchorsOf, checkLinks, headingSlug, linksOf } from "./doc-links";

/** README.md and every Markdown file under docs/: the documents a newcomer reads and follows. */
function documents(): string[] {
  const docs = path.join(repoRoot, "docs");
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith(".md") ? [path.join(dir, e.name)] : [],
    );
  return [path.join(repoRoot, "README.md"), ...walk(docs)];
}

describe("links in README.md and docs/", () => {
  it("every relative link names a file that exists, and every #fragment a heading in it", () => {
    const broken = checkLinks(documents(), repoRoot).map(
      (b) => `${b.file}:${b.line}: (${b.target}) ${b.reason}`,
    );
    expect(broken).toEqual([]);
  });
});

describe("the link checker", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bw-doc-links-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("slugs headings as GitHub does", () => {
    expect(headingSlug("Run it")).toBe("run-it");
    expect(headingSlug("Air-gapped installs: Prisma without downloads")).toBe(
      "air-gapped-installs-prisma-without-downloads",
    );
    expect(headingSlug("2026-12-06, Xeon: every row of issue 22 in one sitting")).toBe(
      "2026-12-06-xeon-every-row-of-issue-22-in-one-sitting",
    );
    expect(headingSlug("The `bw` CLI — what it runs (and how fast)")).toBe(
      "the-bw-cli--what-it-runs-and-how-fast",
    );
    expect(headingSlug("See [Metrics](x.md) ≥ 0.75")).toBe("see-metrics--075");
    expect([...anchorsOf("# A\n## A\n```\n# not a heading\n```\n### A\n")]).toEqual(["a", "a-1", "a-2"]);
  });

  it("finds links outside code only", () => {
    const md =
      '[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n![img](i.png "title")\n<!-- [d](gone.md)\n[e](gone.md) -->\n[ref]: r.md#top\n';
    expect(linksOf(md).map((l) => l.target)).toEqual(["x.md", "i.png", "r.md#top"]);
  });

  it("reports a missing file, a missing heading and a missing local anchor, and passes good links", () => {
    mkdirSync(path.join(dir, "docs"));
    writeFileSync(path.join(dir, "docs", "guide.md"), "# Guide\n\n## Set it up\n");
    const readme = path.join(dir, "README.md");
    writeFileSync(
      readme,
      [
        "# Readme",
        "[ok](docs/guide.md) [ok](docs/guide.md#set-it-up) [ok](#readme) [ok](https://example.com/x#y)",
        "[gone](docs/missing.md)",
        "[no heading](docs/guide.md#set-up)",
        "[no local heading](#nowhere)",
      ].join("\n"),
    );
    expect(checkLinks([readme], dir)).toEqual([
      { file: "README.md", line: 3, target: "docs/missing.md", reason: "no such file: docs/missing.md" },
      {
        file: "README.md",
        line: 4,
        target: "docs/guide.md#set-up",
        reason: "no heading #set-up in docs/guide.md",
      },
      { file: "README.md", line: 5, target: "#nowhere", reason: "no heading #nowhere in README.md" },
    ]);
  });
});
