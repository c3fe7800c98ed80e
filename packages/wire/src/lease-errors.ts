import { rawJson, type WireResult } from "./errors";

// The lease refusals of spec §5: the SDK reads `detail.code`.
export const LEASE_NOT_FOUND = '{"detail":{"code":"lease_not_found","message":"Budget lease not found"}}';
export const LEASE_GENERATION_CONFLICT =
  '{"detail":{"code":"lease_generation_conflict","message":"Budget lease generation conflict"}}';
export const LEASE_HOLDER_CAP_EXCEEDED =
  '{"detail":{"code":"lease_holder_cap_exceeded","message":"Active lease holder limit exceeded"}}';
export const LEASE_UNAVAILABLE =
  '{"detail":{"code":"lease_unavailable","message":"Budget lease service temporarily unavailable; retry"}}';

export const leaseNotFound = (): WireResult => rawJson(404, LEASE_NOT_FOUND);
export const leaseGenerationConflict = (): WireResult => rawJson(409, LEASE_GENERATION_CONFLICT);
export const leaseHolderCapExceeded = (): WireResult => rawJson(409, LEASE_HOLDER_CAP_EXCEEDED);
export const leaseUnavailable = (): WireResult => rawJson(503, LEASE_UNAVAILABLE);

export function leaseRefusal(
  refusal: "not_found" | "generation_conflict" | "holder_cap_exceeded",
): WireResult {
  return refusal === "not_found"
    ? leaseNotFound()
    : refusal === "generation_conflict"
      ? leaseGenerationConflict()
      : leaseHolderCapExceeded();
}
