/**
 * Checks the links in the repository's Markdown: a relative link must name a file or folder that
 * exists, and a `#fragment` must name a heading of the target file (GitHub's heading slugs).
 * External links (http:, https:, mailto:) are not followed: the check needs no network.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export type BrokenLink = { file: string; line: number; target: string; reason: string };

/**
 * Removes HTML comments and fenced code blocks, which GitHub does not render as links or headings
 * (their lines become empty, so line numbers stay right).
 */
function withoutFences(markdown: string): string[] {
  const uncommented = markdown.replace(/<!--[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ""));
  let fence: string | null = null;
  return uncommented.split("\n").map((line) => {
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null) {
      if (open) {
        fence = open[1]!;
        return "";
      }
      return line;
    }
    if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.trim() === open[1]) {
      fence = null;
    }
    return "";
  });
}

/** Removes inline code spans, keeping the line's length. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (m) => " ".repeat(m.length));
}

/**
 * GitHub's anchor for a heading: the rendered text lower-cased, every character that is not a
 * letter, mark, digit, underscore, hyphen or space dropped, spaces turned into hyphens; a second
 * heading with the same slug gets `-1`, a third `-2`.
 */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/`/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs and any `<a id|name="…">`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      const base = headingSlug(heading[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The link targets of a Markdown text, outside code: inline links, images and reference definitions. */
export function linksOf(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  withoutFences(markdown).forEach((raw, i) => {
    const line = withoutCodeSpans(raw);
    for (const m of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: i + 1, target: m[1]!.replace(/^<|>$/g, "") });
    }
    const def = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (def) links.push({ line: i + 1, target: def[1]!.replace(/^<|>$/g, "") });
  });
  return links;
}

/** Checks every link of the given Markdown files (absolute paths); `root` only shortens the report. */
export function checkLinks(files: string[], root: string): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(file, "utf8"));
      anchorCache.set(file, anchors);
    }
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const { line, target } of linksOf(readFileSync(file, "utf8"))) {
      const report = (reason: string) =>
        broken.push({ file: path.relative(root, file), line, target, reason });
      if (target === "") {
        report("empty link");
        continue;
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: …: not followed
      const hash = target.indexOf("#");
      const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      const resolved = filePart === "" ? file : path.resolve(path.dirname(file), filePart);
      if (filePart.startsWith("/")) {
        report("absolute path: write it relative to the file");
        continue;
      }
      if (!existsSync(resolved)) {
        report(`no such file: ${path.relative(root, resolved)}`);
        continue;
      }
      if (fragment === null) continue;
      if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) {
        report("a #fragment on something that is not a Markdown file");
        continue;
      }
      if (!anchorsIn(resolved).has(fragment)) {
        report(`no heading #${fragment} in ${path.relative(root, resolved)}`);
      }
    }
  }
  return broken;
}
