/** Display helpers shared by the operator console and the project page's entitlements section. */

export type FeatureType = "bool" | "int" | "limit";
export type FeatureValue = boolean | number | null;

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
}

export function formatFeatureValue(type: FeatureType, value: FeatureValue): string {
  if (type === "bool") return value === true ? "On" : "Off";
  if (value === null) return "Unlimited";
  return typeof value === "number" ? value.toLocaleString("en-US") : String(value);
}

export function formatWhen(iso: string | null): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
}

/** The message of a failed tRPC call, and its per-field messages when the server sent them. */
export function errorInfo(err: unknown): { message: string; fieldErrors: Record<string, string> } {
  if (!err) return { message: "", fieldErrors: {} };
  const e = err as { message?: string; data?: { fieldErrors?: Record<string, string> } };
  return { message: e.message ?? "Something went wrong", fieldErrors: e.data?.fieldErrors ?? {} };
}
