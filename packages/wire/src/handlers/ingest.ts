import { type IngestEvent, ingestMetadataEvents } from "@breakwater/core";
import { detail, json, type ValidationItem, validationFailed, zodIssuesToItems } from "../errors";
import { fastMetadataEvent } from "../schemas/fast-metadata-event";
import { INGEST_MAX_EVENTS, metadataEvent } from "../schemas/requests";
import { BODY_LIMITS, gate, type Handler } from "./gate";

/** An event's tags, model, modality and service tier have per-event rejection codes of their own. */
const PER_EVENT = new Set(["tags", "model", "modality", "service_tier"]);
const perEvent = (p: (string | number)[]) => p.length === 2 && PER_EVENT.has(p[1] as string);

/** POST /api/v1/metadata/ingest (spec §3): a batch of call events, stored once each. */
export const ingest: Handler = async (ctx, req) => {
  const { key, body, policy } = await gate(ctx, req, { limit: BODY_LIMITS.ingest, textExempt: perEvent });
  if (!Array.isArray(body)) {
    return validationFailed([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
  }
  if (body.length > INGEST_MAX_EVENTS) {
    return detail(400, `A batch holds at most ${INGEST_MAX_EVENTS} events`);
  }
  const events: IngestEvent[] = [];
  const items: ValidationItem[] = [];
  for (let i = 0; i < body.length; i++) {
    const fast = fastMetadataEvent(body[i]);
    if (fast) {
      events.push(fast as IngestEvent);
      continue;
    }
    const parsed = metadataEvent.safeParse(body[i]);
    if (parsed.success) events.push(parsed.data as IngestEvent);
    else if (items.length < 200) items.push(...zodIssuesToItems(parsed.error.issues, body[i], [i]));
    else break;
  }
  if (items.length > 0) return validationFailed(items.slice(0, 200));
  const result = await ingestMetadataEvents(ctx.ingest, {
    projectId: key.projectId,
    organizationId: key.organizationId,
    events,
  });
  const quota = ctx.admission.quota(key.projectId, policy.admissionRate);
  const headers = quota
    ? {
        "x-ratelimit-limit-minute": String(quota.limitMinute),
        "x-ratelimit-remaining-minute": String(quota.remainingMinute),
        "x-ratelimit-limit-hour": String(quota.limitHour),
        "x-ratelimit-remaining-hour": String(quota.remainingHour),
      }
    : undefined;
  return json(
    202,
    { ingested: result.ingested, rejected: result.rejected, duplicates: result.duplicates },
    headers,
  );
};
