/**
 * The usage page's range, kept in the URL (`?range=7d`, or `?range=custom&from=…&to=…`) so a view
 * can be shared. Dates are UTC calendar days, `to` inclusive, as `usage.overview` takes them.
 */

export const RANGE_KEYS = ["24h", "7d", "30d", "90d", "custom"] as const;
export type RangeKey = (typeof RANGE_KEYS)[number];
export type Granularity = "day" | "hour";

export const RANGE_LABEL: Record<RangeKey, string> = {
  "24h": "24 h",
  "7d": "7 d",
  "30d": "30 d",
  "90d": "90 d",
  custom: "Custom",
};

export const DEFAULT_RANGE = "7d" satisfies RangeKey;
/** The longest custom range the page asks for (a year and a day: the same dates a year apart). */
export const MAX_CUSTOM_DAYS = 366;

const DAYS: Record<Exclude<RangeKey, "custom">, number> = { "24h": 2, "7d": 7, "30d": 30, "90d": 90 };

export interface UsageRange {
  key: RangeKey;
  from: string;
  to: string;
  granularity: Granularity;
  /** A rolling window of the last N hours (the 24 h preset) instead of the calendar days from…to. */
  lastHours?: number;
  /** Why the custom range in the URL was not used (the default range is shown instead). */
  invalid?: string;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC calendar day of `at` as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isYmd(value: string): boolean {
  const m = YMD.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return utcDay(d) === value;
}

export function addDays(ymd: string, days: number): string {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return utcDay(d);
}

/** Days from `from` to `to`, both counted. */
export function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function preset(key: Exclude<RangeKey, "custom">, today: string): UsageRange {
  // The 24 h view is the last 24 hours up to now, by hour (from…to are the days it touches, what a
  // switch to a custom range starts from); longer ranges are whole UTC days, by day.
  if (key === "24h") return { key, from: addDays(today, -1), to: today, granularity: "hour", lastHours: 24 };
  return { key, from: addDays(today, -(DAYS[key] - 1)), to: today, granularity: "day" };
}

/** Why a custom from/to pair cannot be shown, or null when it can. */
export function customRangeError(from: string, to: string, today: string): string | null {
  if (!isYmd(from) || !isYmd(to)) return "Pick both dates.";
  if (from > to) return "The start date is after the end date.";
  if (from > today) return "The range starts in the future.";
  if (spanDays(from, to) > MAX_CUSTOM_DAYS) return `Pick at most ${MAX_CUSTOM_DAYS} days.`;
  return null;
}

/** Reads the range from the URL's search params; anything unusable falls back to the default. */
export function parseRange(params: { get(name: string): string | null }, now: Date = new Date()): UsageRange {
  const today = utcDay(now);
  const key = params.get("range");
  if (key === "custom") {
    const from = params.get("from") ?? "";
    const to = params.get("to") ?? "";
    const error = customRangeError(from, to, today);
    if (error) return { ...preset(DEFAULT_RANGE, today), invalid: error };
    // Two days or fewer read better by hour.
    return { key: "custom", from, to, granularity: spanDays(from, to) <= 2 ? "hour" : "day" };
  }
  if (key && Object.hasOwn(DAYS, key)) return preset(key as Exclude<RangeKey, "custom">, today);
  return preset(DEFAULT_RANGE, today);
}

/** The search string for a range (other params, such as a tab, are kept). */
export function rangeSearch(
  current: { toString(): string },
  next: { key: RangeKey; from?: string; to?: string },
): string {
  const params = new URLSearchParams(current.toString());
  params.delete("from");
  params.delete("to");
  if (next.key === DEFAULT_RANGE) params.delete("range");
  else params.set("range", next.key);
  if (next.key === "custom" && next.from && next.to) {
    params.set("from", next.from);
    params.set("to", next.to);
  }
  return params.toString();
}

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const dayYearFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "Nov 26 – Dec 2, 2026 (UTC)": what the dates of a range cover, in words. */
export function describeRange(range: { from: string; to: string }): string {
  const from = new Date(`${range.from}T00:00:00Z`);
  const to = new Date(`${range.to}T00:00:00Z`);
  if (range.from === range.to) return `${dayYearFormat.format(to)} (UTC)`;
  const sameYear = range.from.slice(0, 4) === range.to.slice(0, 4);
  return `${(sameYear ? dayFormat : dayYearFormat).format(from)} – ${dayYearFormat.format(to)} (UTC)`;
}

const hourFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "Dec 3, 10:00 – Dec 4, 10:00 (UTC)": the exact instants of a rolling window (end exclusive). */
export function describeWindow(window: { start: string; end: string }): string {
  return `${hourFormat.format(new Date(window.start))} – ${hourFormat.format(new Date(window.end))} (UTC)`;
}

/** Reads a Next.js `searchParams` object the way the client reads URLSearchParams (first value wins). */
export function paramsGetter(sp: Record<string, string | string[] | undefined>) {
  return {
    get: (name: string) => {
      const v = sp[name];
      return (Array.isArray(v) ? v[0] : v) ?? null;
    },
  };
}

/** `usage.overview`'s input for what the URL asks; the server page prefetches the same. */
export function overviewInput(
  params: { get(name: string): string | null },
  projectId?: string,
  now: Date = new Date(),
) {
  const range = parseRange(params, now);
  const scope = projectId ? { projectId } : {};
  return {
    range,
    // A rolling window is asked for as such, so the server's prefetch and the browser ask the same.
    input: range.lastHours
      ? { ...scope, lastHours: range.lastHours, granularity: range.granularity }
      : { ...scope, from: range.from, to: range.to, granularity: range.granularity },
  };
}
