import { expect } from "vitest";
import { leaseGrantResponse } from "../schemas/leases";

export const LEASE = "/api/v1/budgets/lease";
export const RENEW = "/api/v1/budgets/lease/renew";
export const SURRENDER = "/api/v1/budgets/lease/surrender";

/** A grant request as the SDK sends it (gpt-5.5: a model the SDKs' contract helpers use). */
export const grantBody = (extra: Record<string, unknown> = {}) => ({
  agent_run_id: "agent-run-1",
  holder_id: "holder-1",
  model: "gpt-5.5",
  provider: "openai",
  fallback_providers: [],
  fallback_models: [],
  fail_open: true,
  estimated_input_tokens: 100,
  run_directive_version: "1",
  ...extra,
});

export const renewBody = (leaseId: string, generation: number, extra: Record<string, unknown> = {}) => ({
  lease_id: leaseId,
  holder_id: "holder-1",
  generation,
  spent_tokens: 0,
  reserved_tokens: 0,
  uncounted_calls: 0,
  uncounted_tokens: 0,
  model: null,
  provider: null,
  fallback_providers: [],
  fallback_models: [],
  run_directive_version: "1",
  ...extra,
});

export const surrenderBody = (leaseId: string, generation: number, spent = 0) => ({
  lease_id: leaseId,
  holder_id: "holder-1",
  generation,
  spent_tokens: spent,
});

/** Parses a grant/renew answer with the strict schema (one unknown key would fail the SDK). */
export function leaseAnswer(text: string) {
  const parsed = leaseGrantResponse.safeParse(JSON.parse(text));
  expect(parsed.success, text).toBe(true);
  return parsed.data!;
}
