import { isDomainError, type LeaseAnswer } from "@breakwater/core";
import { rawJson, type WireResult } from "../errors";
import { leaseRefusal, leaseUnavailable } from "../lease-errors";

/** A lease body holds at most nine model ids of 2 KiB. */
export const LEASE_BODY_LIMIT = 64 * 1024;

/** The lease store is the budget Redis: when it cannot answer, the lease envelope says so (spec §5). */
export async function orLeaseUnavailable<T>(
  work: Promise<T>,
  answer: (v: T) => WireResult,
): Promise<WireResult> {
  try {
    return answer(await work);
  } catch (err) {
    if (isDomainError(err) && err.code === "BUDGET_UNAVAILABLE") return leaseUnavailable();
    throw err;
  }
}

/** A grant/renew answer is sent as stored (a replay is byte-identical); refusals get their envelope. */
export const answered = (a: LeaseAnswer): WireResult =>
  a.ok ? rawJson(200, a.body) : leaseRefusal(a.refusal);
