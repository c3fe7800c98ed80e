/**
 * Budget periods as UTC windows. A window is part of a Redis key (`d:2026-11-30`, `w:2026-W48`,
 * `m:2026-11`), so a new window simply starts from an absent key — nothing is ever reset by a cron.
 */
export const PERIODS = ["daily", "weekly", "monthly"] as const;
export type Period = (typeof PERIODS)[number];

/** One-letter period codes used inside Redis keys and Lua records. */
export const PERIOD_CODE: Record<Period, "d" | "w" | "m"> = { daily: "d", weekly: "w", monthly: "m" };

export interface BudgetWindow {
  period: Period;
  /** `d:YYYY-MM-DD`, `w:YYYY-Www` (ISO week-year), `m:YYYY-MM`. */
  key: string;
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;

/** How long a window's counters outlive the window (late confirms/ingests still land; then Redis frees them). */
export const WINDOW_GRACE_MS = 2 * DAY_MS;

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The UTC window of `period` containing `at`. */
export function windowOf(period: Period, at: Date): BudgetWindow {
  const y = at.getUTCFullYear();
  const mo = at.getUTCMonth();
  const d = at.getUTCDate();
  if (period === "daily") {
    const start = new Date(Date.UTC(y, mo, d));
    return { period, key: `d:${y}-${pad(mo + 1)}-${pad(d)}`, start, end: new Date(start.getTime() + DAY_MS) };
  }
  if (period === "monthly") {
    return {
      period,
      key: `m:${y}-${pad(mo + 1)}`,
      start: new Date(Date.UTC(y, mo, 1)),
      end: new Date(Date.UTC(y, mo + 1, 1)),
    };
  }
  // ISO 8601: weeks start on Monday; week 1 holds the year's first Thursday.
  const dayStart = Date.UTC(y, mo, d);
  const isoDow = (at.getUTCDay() + 6) % 7; // Monday = 0
  const start = new Date(dayStart - isoDow * DAY_MS);
  const thursday = new Date(start.getTime() + 3 * DAY_MS);
  const isoYear = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / (7 * DAY_MS)) + 1;
  return { period, key: `w:${isoYear}-W${pad(week)}`, start, end: new Date(start.getTime() + 7 * DAY_MS) };
}

/** The three current windows at `at`, keyed by period. */
export function currentWindows(at: Date): Record<Period, BudgetWindow> {
  return { daily: windowOf("daily", at), weekly: windowOf("weekly", at), monthly: windowOf("monthly", at) };
}

let keysDay = Number.NaN;
let keysOfDay: Readonly<Record<Period, string>> = { daily: "", weekly: "", monthly: "" };

/**
 * The keys of the three current windows at `ms` (epoch milliseconds): the same as
 * `currentWindows(new Date(ms))[period].key`, computed once per UTC day — every window starts at
 * a UTC midnight, so all three keys change only then.
 */
export function currentWindowKeys(ms: number): Readonly<Record<Period, string>> {
  const day = Math.floor(ms / DAY_MS);
  if (day !== keysDay) {
    const w = currentWindows(new Date(day * DAY_MS));
    keysOfDay = Object.freeze({ daily: w.daily.key, weekly: w.weekly.key, monthly: w.monthly.key });
    keysDay = day;
  }
  return keysOfDay;
}

/** Absolute expiry (ms) for a window's counters: a little after the window closes. */
export function windowExpireAt(w: BudgetWindow): number {
  return w.end.getTime() + WINDOW_GRACE_MS;
}
