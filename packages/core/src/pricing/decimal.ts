// Exact decimal arithmetic for money. Rates are published with up to ~4 decimals per million
// tokens and multiplied by integer token counts and decimal multipliers; binary floats would drift
// by fractions of a cent over millions of calls, so every price computation runs on BigInt.

const DECIMAL_RE = /^([+-]?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** An exact decimal: mantissa × 10^-scale. Immutable. */
export class Dec {
  private constructor(
    readonly mantissa: bigint,
    readonly scale: number,
  ) {}

  static readonly ZERO = new Dec(0n, 0);
  static readonly ONE = new Dec(1n, 0);

  /** Parses "12", "0.075", "-1.5", "1e-7" or a finite number; throws on anything else. */
  static from(value: string | number | bigint | Dec): Dec {
    if (value instanceof Dec) return value;
    if (typeof value === "bigint") return new Dec(value, 0);
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
      if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER)
        return new Dec(BigInt(value), 0);
      return Dec.from(String(value));
    }
    const m = DECIMAL_RE.exec(value.trim());
    if (!m) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
    const [, sign, int, frac = "", exp] = m;
    let mantissa = BigInt(`${int}${frac}`);
    let scale = frac.length - (exp ? Number(exp) : 0);
    if (scale < 0) {
      mantissa *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return new Dec(sign === "-" ? -mantissa : mantissa, scale).normalize();
  }

  /** True when `value` parses as a decimal. */
  static isDecimal(value: string): boolean {
    return DECIMAL_RE.test(value.trim());
  }

  add(other: Dec): Dec {
    if (this.scale === other.scale) return new Dec(this.mantissa + other.mantissa, this.scale);
    const s = Math.max(this.scale, other.scale);
    return new Dec(this.rescaled(s) + other.rescaled(s), s);
  }

  sub(other: Dec): Dec {
    return this.add(other.neg());
  }

  neg(): Dec {
    return new Dec(-this.mantissa, this.scale);
  }

  mul(other: Dec): Dec {
    return new Dec(this.mantissa * other.mantissa, this.scale + other.scale).normalize();
  }

  /** Multiplies by an integer count (token counts); exact. */
  mulInt(n: number | bigint): Dec {
    return new Dec(this.mantissa * BigInt(n), this.scale);
  }

  /** Divides by 10^k exactly (per-million → per-unit). */
  shift(k: number): Dec {
    return new Dec(this.mantissa, this.scale + k);
  }

  /** this / other, rounded half-up to `places` decimals (only for derived rates, never for totals). */
  divRound(other: Dec, places: number): Dec {
    if (other.mantissa === 0n) throw new RangeError("division by zero");
    // this/other = (a·10^-s1)/(b·10^-s2) = (a/b)·10^(s2-s1); scale the numerator to get `places`.
    const a = this.mantissa;
    const b = other.mantissa;
    const exp = places + this.scale * -1 + other.scale; // power of ten applied to a
    let num = a;
    let den = b;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
    const neg = num < 0n !== den < 0n;
    if (num < 0n) num = -num;
    if (den < 0n) den = -den;
    let q = num / den;
    if ((num % den) * 2n >= den) q += 1n;
    return new Dec(neg ? -q : q, places).normalize();
  }

  /** floor(this / other) as an integer. */
  divFloor(other: Dec): bigint {
    if (other.mantissa === 0n) throw new RangeError("division by zero");
    let num = this.mantissa * 10n ** BigInt(other.scale);
    let den = other.mantissa * 10n ** BigInt(this.scale);
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    const q = num / den;
    return num < 0n && q * den !== num ? q - 1n : q;
  }

  cmp(other: Dec): -1 | 0 | 1 {
    const s = Math.max(this.scale, other.scale);
    const a = this.rescaled(s);
    const b = other.rescaled(s);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  isNegative(): boolean {
    return this.mantissa < 0n;
  }

  /** The value in units of 10^-places, rounded up (towards +infinity). */
  ceilTo(places: number): bigint {
    if (this.scale <= places) return this.mantissa * 10n ** BigInt(places - this.scale);
    const div = 10n ** BigInt(this.scale - places);
    const q = this.mantissa / div;
    return this.mantissa > 0n && this.mantissa % div !== 0n ? q + 1n : q;
  }

  /** Nearest binary float; for display and relative comparisons only. */
  toNumber(): number {
    return Number(this.toString());
  }

  /** Plain decimal notation, no exponent, no trailing zeros ("0.0125", "3", "-0.5"). */
  toString(): string {
    const n = this.normalize();
    const neg = n.mantissa < 0n;
    const digits = (neg ? -n.mantissa : n.mantissa).toString();
    if (n.scale === 0) return `${neg ? "-" : ""}${digits}`;
    const padded = digits.padStart(n.scale + 1, "0");
    const int = padded.slice(0, padded.length - n.scale);
    const frac = padded.slice(padded.length - n.scale);
    return `${neg ? "-" : ""}${int}.${frac}`;
  }

  toJSON(): string {
    return this.toString();
  }

  private rescaled(scale: number): bigint {
    return this.mantissa * 10n ** BigInt(scale - this.scale);
  }

  private normalize(): Dec {
    let m = this.mantissa;
    let s = this.scale;
    if (m === 0n) return s === 0 ? this : new Dec(0n, 0);
    while (s > 0 && m % 10n === 0n) {
      m /= 10n;
      s--;
    }
    return s === this.scale ? this : new Dec(m, s);
  }
}
