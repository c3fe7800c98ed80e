/**
 * Money inside the budget engine is integer nano-dollars (1e-9 USD): exact under Redis INCRBY and
 * exact as Lua doubles up to ~$9M per counter. USD floats appear only at the wire edge.
 */
export const NANOS_PER_USD = 1_000_000_000n;

const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Exact conversion of a decimal USD amount (a Prisma Decimal's string, a SQL numeric's text or a
 * finite number) to nano-dollars, rounding half away from zero at the tenth decimal.
 */
export function usdToNanos(value: string | number | { toString(): string }): bigint {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("USD amount must be finite");
    // toFixed avoids exponent notation; 10 decimals keep the rounding digit.
    text = value.toFixed(10);
  } else {
    text = expandExponent(value.toString().trim());
  }
  const m = DECIMAL_RE.exec(text);
  if (!m) throw new RangeError(`Not a decimal USD amount: ${text}`);
  const negative = m[1] === "-";
  const whole = BigInt(m[2]!);
  const frac = (m[3] ?? "").padEnd(10, "0");
  let nanos = whole * NANOS_PER_USD + BigInt(frac.slice(0, 9));
  if (Number(frac[9]) >= 5) nanos += 1n;
  return negative ? -nanos : nanos;
}

/**
 * Decimal.js (Prisma's Decimal) prints small and large values in exponent form ("1e-7"); rewrite
 * such text as a plain decimal so no stored amount is unreadable.
 */
function expandExponent(text: string): string {
  const m = /^(-)?(\d+)(?:\.(\d+))?e([+-]?\d+)$/i.exec(text);
  if (!m) return text;
  const sign = m[1] ?? "";
  const digits = `${m[2]}${m[3] ?? ""}`;
  const point = m[2]!.length + Number(m[4]);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Nano-dollars to a finite USD number for the wire (rounded to 9 decimals). */
export function nanosToUsd(nanos: bigint | number): number {
  if (typeof nanos === "number" && Number.isSafeInteger(nanos)) {
    // The same two parts as the bigint path below, in exact double arithmetic (no BigInt on the
    // check's hot path): both the remainder and the whole quotient are representable exactly.
    const frac = nanos % 1e9;
    return (nanos - frac) / 1e9 + frac / 1e9;
  }
  const n = typeof nanos === "bigint" ? nanos : BigInt(Math.trunc(nanos));
  const whole = n / NANOS_PER_USD;
  const frac = n % NANOS_PER_USD;
  return Number(whole) + Number(frac) / 1e9;
}

/** Nano-dollars as a decimal string with 9 places, for Postgres numeric columns. */
export function nanosToDecimalString(nanos: bigint): string {
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const text = `${abs / NANOS_PER_USD}.${(abs % NANOS_PER_USD).toString().padStart(9, "0")}`;
  return negative ? `-${text}` : text;
}
