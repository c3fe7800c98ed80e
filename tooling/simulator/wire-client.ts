/** The few SDK wire calls the fleet simulator makes, exactly as an SDK sends them (spec: wire-protocol.md). */
import { setTimeout } from "node:timers/promises";

export type CircuitState = "closed" | "open" | "half_open";

export interface BreakerReport {
  provider: string;
  state: CircuitState;
  failure_count: number;
  success_count: number;
  reported_at: string;
  sdk_instance_id: string;
}

export interface MetadataEvent {
  model: string;
  provider: string;
  modality: "text";
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
  status: "success" | "error";
  is_model_fallback: boolean;
  is_provider_fallback: boolean;
  requested_provider: string | null;
  requested_model: string | null;
  failover_reason: "circuit_open" | "primary_error" | null;
  failover_error_class: string | null;
  attempt_index: number;
  call_id: string;
  sdk_instance_id: string;
  timestamp: string;
}

export class WireError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    path: string,
  ) {
    super(`${path} answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** An HTTP client for one project key (Node's fetch keeps connections alive). */
export class WireClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** One POST; like the SDK, 408/429/5xx and network failures are retried with backoff, up to 5 attempts. */
  async post(path: string, body: unknown): Promise<unknown> {
    const payload = JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      let status = 0;
      let text = "";
      try {
        const res = await fetch(`${this.baseUrl.replace(/\/+$/, "")}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${this.apiKey}`, "content-type": "application/json" },
          body: payload,
        });
        status = res.status;
        text = await res.text();
      } catch (err) {
        if (attempt >= 5) throw err;
      }
      if (status > 0 && status < 300) return text ? JSON.parse(text) : undefined;
      const retryable = status === 0 || status === 408 || status === 429 || status >= 500;
      if (!retryable || attempt >= 5) throw new WireError(status, text, path);
      await setTimeout(100 * 2 ** attempt);
    }
  }

  check(body: {
    model: string;
    provider: string;
    fallback_providers: string[];
    fallback_models: string[];
    estimated_input_tokens: number;
  }): Promise<{ allowed: boolean; project_id: string; reservation_id?: string | null }> {
    return this.post("/api/v1/budgets/check", {
      ...body,
      failover_directive_version: "1",
      run_directive_version: "1",
      price_hints_version: "1",
    }) as Promise<{ allowed: boolean; project_id: string; reservation_id?: string | null }>;
  }

  confirm(body: {
    reservation_id: string;
    model: string;
    provider: string;
    is_provider_fallback: boolean;
    call_id: string;
    token_details: { input_tokens: number; output_tokens: number };
  }): Promise<unknown> {
    return this.post("/api/v1/budgets/confirm", body);
  }

  ingest(events: MetadataEvent[]): Promise<unknown> {
    return this.post("/api/v1/metadata/ingest", events);
  }

  breakerReport(projectId: string, report: BreakerReport): Promise<unknown> {
    return this.post(`/api/v1/projects/${projectId}/providers/breaker-reports`, report);
  }
}
