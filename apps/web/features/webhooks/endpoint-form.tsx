"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { FieldError } from "@/features/operator/plans-console";
import { ENDPOINT_FORMATS, type EndpointFormat } from "./format";

export interface EndpointFormValues {
  url: string;
  description: string;
  projectId: string | undefined;
  eventTypes: string[];
  providers: string[];
  format: EndpointFormat;
  /** PagerDuty: a new routing key; empty keeps the stored one. */
  routingKey: string | undefined;
}

const ALL = "all";

/**
 * URL, description, project (create only) and the event-type and provider filters of an endpoint.
 * Empty filters mean "everything".
 */
export function EndpointForm({
  initial,
  projects,
  projectRequired,
  showProject,
  submitLabel,
  pendingLabel,
  pending,
  error,
  fieldErrors = {},
  routingKeyHint,
  onSubmit,
  onCancel,
}: {
  initial?: Partial<EndpointFormValues>;
  projects: { id: string; name: string }[];
  /** Svix delivers per project, so an endpoint there belongs to one. */
  projectRequired: boolean;
  showProject: boolean;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  error: string | null | undefined;
  /** Per-field messages of a refused save (url, format, routingKey, eventTypes). */
  fieldErrors?: Record<string, string>;
  /** The stored routing key's last characters, when the endpoint has one. */
  routingKeyHint?: string | null;
  onSubmit: (v: EndpointFormValues) => void;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [projectId, setProjectId] = useState(initial?.projectId ?? (projectRequired ? "" : ALL));
  const [eventTypes, setEventTypes] = useState<string[]>(initial?.eventTypes ?? []);
  const [providers, setProviders] = useState((initial?.providers ?? []).join(", "));
  const [format, setFormat] = useState<EndpointFormat>(initial?.format ?? "standard");
  const [routingKey, setRoutingKey] = useState("");
  const allowed: readonly string[] = ENDPOINT_FORMATS[format].types;

  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({
          url: url.trim(),
          description: description.trim(),
          projectId: projectId === ALL || projectId === "" ? undefined : projectId,
          format,
          routingKey: format === "pagerduty" && routingKey.trim() ? routingKey.trim() : undefined,
          eventTypes: eventTypes.filter((t) => allowed.includes(t)),
          providers: providers
            .split(/[\s,]+/)
            .map((p) => p.trim().toLowerCase())
            .filter(Boolean),
        });
      }}
    >
      <div>
        <Label htmlFor="endpoint-url">Endpoint URL</Label>
        <Input
          id="endpoint-url"
          type="url"
          required
          maxLength={2048}
          placeholder="https://example.com/webhooks/breakwater"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={fieldErrors.url ? true : undefined}
        />
        <FieldError message={fieldErrors.url} />
      </div>
      <div>
        <Label htmlFor="endpoint-format">Format</Label>
        <Select value={format} onValueChange={(v) => setFormat(v as EndpointFormat)}>
          <SelectTrigger id="endpoint-format" aria-label="Format">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(Object.keys(ENDPOINT_FORMATS) as EndpointFormat[]).map((f) => (
              <SelectItem key={f} value={f}>
                {ENDPOINT_FORMATS[f].label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <FieldError message={fieldErrors.format} />
        <Hint>
          {format === "standard"
            ? "Signed JSON (Standard Webhooks) for your own receiver."
            : format === "slack"
              ? "A Slack incoming webhook (https://hooks.slack.com/services/…): one readable message per provider incident opened, crossing 50 %/100 %, resolved."
              : "PagerDuty Events API v2 (https://events.pagerduty.com/v2/enqueue): a trigger when an incident opens, a resolve when it ends, deduplicated by incident."}
        </Hint>
      </div>
      {format === "pagerduty" ? (
        <div>
          <Label htmlFor="endpoint-routing-key">Routing key</Label>
          <Input
            id="endpoint-routing-key"
            autoComplete="off"
            placeholder={
              routingKeyHint ? `Stored (${routingKeyHint}); type to replace` : "32-character Integration Key"
            }
            value={routingKey}
            onChange={(e) => setRoutingKey(e.target.value)}
            aria-invalid={fieldErrors.routingKey ? true : undefined}
          />
          <FieldError message={fieldErrors.routingKey} />
          <Hint>The Integration Key of an Events API v2 integration on the PagerDuty service.</Hint>
        </div>
      ) : null}
      <div>
        <Label htmlFor="endpoint-description">Description</Label>
        <Input
          id="endpoint-description"
          maxLength={200}
          placeholder="Pager for the on-call channel"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      {showProject ? (
        <div>
          <Label htmlFor="endpoint-project">Project</Label>
          <Select value={projectId} onValueChange={setProjectId} required={projectRequired}>
            <SelectTrigger id="endpoint-project" aria-label="Project">
              <SelectValue placeholder="Choose a project" />
            </SelectTrigger>
            <SelectContent>
              {projectRequired ? null : <SelectItem value={ALL}>All projects</SelectItem>}
              {projects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {projectRequired ? <Hint>With Svix delivering, each endpoint belongs to one project.</Hint> : null}
        </div>
      ) : null}
      <fieldset>
        <legend className="mb-1.5 block text-[13px] font-medium text-zinc-800">Event types</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {allowed.map((t) => (
            <label key={t} className="flex items-center gap-2 font-mono text-[12px] text-zinc-700">
              <input
                type="checkbox"
                className="size-4 accent-brand-600"
                checked={eventTypes.includes(t)}
                onChange={(e) =>
                  setEventTypes((cur) => (e.target.checked ? [...cur, t] : cur.filter((x) => x !== t)))
                }
              />
              {t}
            </label>
          ))}
        </div>
        <FieldError message={fieldErrors.eventTypes} />
        <Hint>
          {format === "standard"
            ? "None ticked: every event type, including ones added later."
            : "None ticked: every incident type this format takes."}
        </Hint>
      </fieldset>
      <div>
        <Label htmlFor="endpoint-providers">Providers</Label>
        <Input
          id="endpoint-providers"
          placeholder="openai, anthropic"
          value={providers}
          onChange={(e) => setProviders(e.target.value)}
        />
        <Hint>Only breakers of these providers, comma-separated. Empty: every provider.</Hint>
      </div>
      <FormError message={error} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={pending || (projectRequired && !projectId)}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** The per-field messages of a refused endpoint save (tRPC error data), or none. */
export function errorFields(err: unknown): Record<string, string> {
  return (err as { data?: { fieldErrors?: Record<string, string> } } | null)?.data?.fieldErrors ?? {};
}
