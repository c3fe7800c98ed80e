/**
 * Formatting for usage figures. Money arrives as exact decimal strings and is rounded here on the
 * digits (BigInt), never through a float, so what is shown is what was summed.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const count = new Intl.NumberFormat("en-US");

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * Rounds a decimal string half away from zero to `places` decimals; returns [sign, int, frac].
 * Throws on anything that is not a plain decimal.
 */
export function roundDecimal(
  value: string,
  places: number,
): { negative: boolean; int: string; frac: string } {
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
  const [, sign, int, frac = ""] = m;
  const padded = (frac + "0".repeat(places + 1)).slice(0, places + 1);
  let scaled = BigInt(int + padded.slice(0, places));
  if (Number(padded[places]) >= 5) scaled += 1n;
  const digits = scaled.toString().padStart(places + 1, "0");
  const negative = sign === "-" && scaled !== 0n;
  return {
    negative,
    int: digits.slice(0, digits.length - places).replace(/^0+(?=\d)/, ""),
    frac: digits.slice(digits.length - places),
  };
}

/** True when the decimal string is zero (any number of zeros). */
export function isZeroDecimal(value: string): boolean {
  return /^-?0*(\.0*)?$/.test(value.trim()) && /\d/.test(value);
}

/**
 * Dollars for people: cents from $1 up ("$1,234.57"); below $1 three significant digits, so a
 * small amount never shows as $0.00 ("$0.000123", "$0.00045", "$0.50"). Exact zero is "$0.00".
 */
export function formatUsd(value: string): string {
  const m = DECIMAL.exec(value.trim());
  if (!m) return value;
  const int = m[2] ?? "0";
  const frac = m[3] ?? "";
  let places = 2;
  if (/^0+$/.test(int)) {
    const firstNonZero = frac.search(/[1-9]/);
    if (firstNonZero === -1) return "$0.00";
    places = Math.min(Math.max(2, firstNonZero + 3), 10);
  }
  const r = roundDecimal(value, places);
  // Three significant digits can end in zeros ("0.000450"): keep at least cents.
  const frac2 = r.frac.length > 2 ? r.frac.replace(/0+$/, "").padEnd(2, "0") : r.frac;
  return `${r.negative ? "-" : ""}$${group(r.int)}.${frac2}`;
}

/** Adds decimal strings exactly (used for sums shown next to per-row figures). */
export function sumDecimals(values: string[]): string {
  let scale = 0;
  const parts = values.map((v) => {
    const m = DECIMAL.exec(v.trim());
    if (!m) throw new RangeError(`not a decimal: ${JSON.stringify(v)}`);
    const frac = m[3] ?? "";
    scale = Math.max(scale, frac.length);
    return { sign: m[1], int: m[2] as string, frac };
  });
  let total = 0n;
  for (const p of parts) {
    const n = BigInt(p.int + p.frac.padEnd(scale, "0"));
    total += p.sign === "-" ? -n : n;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
}

export const formatCount = (n: number) => count.format(n);

/** "unpriced · 1,234 tokens": usage the catalogue could not price is counted, never shown as $0. */
export function unpricedLabel(tokens: number): string {
  return `unpriced · ${count.format(tokens)} ${tokens === 1 ? "token" : "tokens"}`;
}

/** A share as a percentage with one decimal ("37.5 %"), or "—" when there is nothing to share. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return "—";
  const pct = (part / whole) * 100;
  return `${pct >= 99.95 && part < whole ? "99.9" : pct.toFixed(1).replace(/\.0$/, "")} %`;
}

/** A limit's use: "0 %", "<0.1 %", "2.5 %", "87 %", "140 %". */
export function formatPercent(pct: number): string {
  if (pct <= 0) return "0 %";
  if (pct < 0.1) return "<0.1 %";
  if (pct < 10) return `${pct.toFixed(1).replace(/\.0$/, "")} %`;
  return `${Math.round(pct)} %`;
}

export function formatLatency(ms: number | null): string {
  return ms === null ? "—" : `${count.format(Math.round(ms))} ms`;
}

const clock = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "14:05:09 UTC". */
export function formatClock(iso: string): string {
  return `${clock.format(new Date(iso))} UTC`;
}

const dayTick = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** A series bucket's axis label: "Dec 2" by day, "Dec 2 14:00" by hour (UTC). */
export function bucketLabel(iso: string, granularity: "day" | "hour"): string {
  const d = new Date(iso);
  const day = dayTick.format(d);
  if (granularity === "day") return day;
  return `${day} ${String(d.getUTCHours()).padStart(2, "0")}:00`;
}

/** The failover reasons as people read them. */
export const REASON_LABEL: Record<string, string> = {
  circuit_open: "Circuit open",
  primary_error: "Primary error",
  model_fallback: "Model fallback",
  cost_routed: "Cost routed",
};

export const PERIOD_LABEL: Record<string, string> = {
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
};
