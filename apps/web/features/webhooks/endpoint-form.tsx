"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EVENT_TYPES } from "./format";

export interface EndpointFormValues {
  url: string;
  description: string;
  projectId: string | undefined;
  eventTypes: string[];
  providers: string[];
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
  onSubmit: (v: EndpointFormValues) => void;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [projectId, setProjectId] = useState(initial?.projectId ?? (projectRequired ? "" : ALL));
  const [eventTypes, setEventTypes] = useState<string[]>(initial?.eventTypes ?? []);
  const [providers, setProviders] = useState((initial?.providers ?? []).join(", "));

  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({
          url: url.trim(),
          description: description.trim(),
          projectId: projectId === ALL || projectId === "" ? undefined : projectId,
          eventTypes,
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
        />
      </div>
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
          {EVENT_TYPES.map((t) => (
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
        <Hint>None ticked: every event type, including ones added later.</Hint>
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
