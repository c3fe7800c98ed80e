"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label, Textarea } from "@/components/ui/form";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { LoadingState, QueryState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo, formatWhen } from "./format";
import { type CardData, PROVIDERS, today } from "./price-card-defaults";

export type { CardData };

const UNITS = [
  { value: "token", label: "Tokens (rates per 1M)" },
  { value: "image", label: "Images" },
  { value: "second", label: "Seconds" },
  { value: "minute", label: "Minutes" },
  { value: "mchar", label: "Million characters" },
] as const;

type RateKey =
  | "inputPerMtok"
  | "cachedInputPerMtok"
  | "cacheWrite5mPerMtok"
  | "cacheWrite1hPerMtok"
  | "outputPerMtok";
const RATES: { key: RateKey; label: string; optional: boolean }[] = [
  { key: "inputPerMtok", label: "Input", optional: false },
  { key: "cachedInputPerMtok", label: "Cached input", optional: true },
  { key: "cacheWrite5mPerMtok", label: "Cache write 5 min", optional: true },
  { key: "cacheWrite1hPerMtok", label: "Cache write 1 h", optional: true },
  { key: "outputPerMtok", label: "Output", optional: false },
];

type Draft = {
  provider: string;
  model: string;
  unit: string;
  rates: Record<RateKey, string>;
  long: Record<RateKey | "threshold", string>;
  aliases: string;
  patterns: string;
  regions: string;
  tiers: string;
  unitPrices: string;
  notes: string;
  source: string;
  sourceDate: string;
};

const pairs = (rec: Record<string, string> | undefined) =>
  Object.entries(rec ?? {})
    .map(([k, v]) => `${k} = ${v}`)
    .join("\n");

function toDraft(c: CardData): Draft {
  const lc = c.longContext;
  return {
    provider: c.provider,
    model: c.model,
    unit: c.unit ?? "token",
    rates: {
      inputPerMtok: c.inputPerMtok,
      cachedInputPerMtok: c.cachedInputPerMtok ?? "",
      cacheWrite5mPerMtok: c.cacheWrite5mPerMtok ?? "",
      cacheWrite1hPerMtok: c.cacheWrite1hPerMtok ?? "",
      outputPerMtok: c.outputPerMtok,
    },
    long: {
      threshold: lc ? String(lc.threshold) : "",
      inputPerMtok: lc?.inputPerMtok ?? "",
      cachedInputPerMtok: lc?.cachedInputPerMtok ?? "",
      cacheWrite5mPerMtok: lc?.cacheWrite5mPerMtok ?? "",
      cacheWrite1hPerMtok: lc?.cacheWrite1hPerMtok ?? "",
      outputPerMtok: lc?.outputPerMtok ?? "",
    },
    aliases: (c.aliases ?? []).join("\n"),
    patterns: (c.patterns ?? []).join("\n"),
    regions: pairs(c.regionMultipliers),
    tiers: pairs(c.tierMultipliers),
    unitPrices: pairs(c.unitPrices),
    notes: c.notes ?? "",
    source: c.source,
    sourceDate: c.sourceDate,
  };
}

const lines = (s: string) =>
  s
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

function record(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of lines(s)) {
    const i = l.indexOf("=");
    if (i < 0) out[l] = "";
    else out[l.slice(0, i).trim()] = l.slice(i + 1).trim();
  }
  return out;
}

/** The card the form describes, as the server's priceCardFields expects it (the server validates). */
function fromDraft(d: Draft) {
  const anyLong = Object.values(d.long).some((v) => v.trim() !== "");
  const threshold = Number(d.long.threshold);
  return {
    provider: d.provider,
    model: d.model,
    unit: d.unit,
    ...d.rates,
    longContext: anyLong
      ? {
          threshold: d.long.threshold.trim() === "" ? null : Number.isNaN(threshold) ? -1 : threshold,
          inputPerMtok: d.long.inputPerMtok,
          cachedInputPerMtok: d.long.cachedInputPerMtok,
          cacheWrite5mPerMtok: d.long.cacheWrite5mPerMtok,
          cacheWrite1hPerMtok: d.long.cacheWrite1hPerMtok,
          outputPerMtok: d.long.outputPerMtok,
        }
      : null,
    aliases: lines(d.aliases),
    patterns: lines(d.patterns),
    regionMultipliers: record(d.regions),
    tierMultipliers: record(d.tiers),
    unitPrices: record(d.unitPrices),
    notes: d.notes,
    source: d.source,
    sourceDate: d.sourceDate,
  };
}

/** Every field error under `prefix` ("aliases" → "aliases.0", "aliases.1"…), one line each. */
function errorsUnder(fieldErrors: Record<string, string>, prefix: string, listed: "line" | "key" | null) {
  const out: string[] = [];
  for (const [path, message] of Object.entries(fieldErrors)) {
    if (path === prefix) out.push(message);
    else if (path.startsWith(`${prefix}.`)) {
      const rest = path.slice(prefix.length + 1);
      out.push(
        listed === "line" && /^\d+$/.test(rest)
          ? `Line ${Number(rest) + 1}: ${message}`
          : `${rest}: ${message}`,
      );
    }
  }
  return out.length ? out.join(" · ") : undefined;
}

function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? <Hint>{hint}</Hint> : null}
      {error ? (
        <p id={`${id}-error`} data-testid={`error-${id}`} className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Opens the editor on an existing card. */
export function EditPriceCard({ id }: { id: string }) {
  const trpc = useTRPC();
  const card = useQuery(trpc.operator.getPriceCard.queryOptions({ id }));
  return (
    <QueryState query={card} loading={<LoadingState label="Loading card" rows={8} />} isEmpty={() => false}>
      {(c) => <PriceCardEditor key={c.id} initial={c as CardData} />}
    </QueryState>
  );
}

/**
 * The card form: every rate, the long-context bracket, aliases and patterns, multipliers, media
 * unit prices, notes and source. The server validates (field errors appear under each field) and
 * refuses a stale save. `reprice`: the unpriced model this card was opened for; after the card is
 * saved its past events are re-priced and the editor moves to the progress list.
 */
export function PriceCardEditor({
  initial,
  reprice,
}: {
  initial: CardData;
  reprice?: { provider: string; model: string } | null;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const editing = initial.id !== undefined;
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial));
  const [opened, setOpened] = useState(initial.updatedAt ?? "");
  const [saved, setSaved] = useState<string | null>(null);

  const refreshLists = () => queryClient.invalidateQueries({ queryKey: trpc.operator.pathKey() });
  const startReprice = useMutation(trpc.operator.startRepricing.mutationOptions());
  const onSaved = async (c: { id: string; updatedAt: string }) => {
    setOpened(c.updatedAt);
    setSaved(formatWhen(c.updatedAt));
    await refreshLists();
    if (reprice) {
      await startReprice.mutateAsync(reprice);
      router.push("/plans/prices/unpriced");
    } else if (!editing) router.push(`/plans/prices/${c.id}`);
  };
  const create = useMutation(trpc.operator.createPriceCard.mutationOptions({ onSuccess: onSaved }));
  const update = useMutation(trpc.operator.updatePriceCard.mutationOptions({ onSuccess: onSaved }));
  const failed = editing ? update.error : create.error;
  const { message, fieldErrors } = errorInfo(failed ?? startReprice.error);
  const err = (path: string, listed: "line" | "key" | null = null) => errorsUnder(fieldErrors, path, listed);
  const pending = create.isPending || update.isPending || startReprice.isPending;

  const set = (patch: Partial<Draft>) => {
    setSaved(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const rateInput = (group: "rates" | "long", key: RateKey, label: string) => {
    const id = group === "rates" ? key : `long-${key}`;
    const path = group === "rates" ? key : `longContext.${key}`;
    const error = err(path);
    return (
      <Field key={id} id={id} label={`${group === "long" ? "Long " : ""}${label}`} error={error}>
        <Input
          id={id}
          inputMode="decimal"
          value={draft[group][key]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => set({ [group]: { ...draft[group], [key]: e.target.value } } as Partial<Draft>)}
        />
      </Field>
    );
  };
  const area = (id: keyof Draft, label: string, path: string, listed: "line" | "key", hint: ReactNode) => {
    const error = err(path, listed);
    return (
      <Field id={id} label={label} error={error} hint={hint}>
        <Textarea
          id={id}
          rows={3}
          value={draft[id] as string}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => set({ [id]: e.target.value } as Partial<Draft>)}
        />
      </Field>
    );
  };

  return (
    <Card>
      <CardHeader
        title={editing ? `${initial.provider}/${initial.model}` : "New price card"}
        description={
          reprice
            ? `Seen in traffic without a price. Saving prices ${reprice.provider}/${reprice.model} and re-prices its past events.`
            : "Rates are USD per million tokens. Empty cache rates bill at the input rate."
        }
      />
      <form
        className="space-y-6 p-5"
        aria-label="Price card"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(null);
          const card = fromDraft(draft);
          if (editing) update.mutate({ id: initial.id as string, expectedUpdatedAt: opened, card } as never);
          else create.mutate(card as never);
        }}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="provider" label="Provider" error={err("provider")}>
            <Select value={draft.provider} onValueChange={(v) => set({ provider: v })} disabled={editing}>
              <SelectTrigger id="provider" aria-label="Provider">
                <SelectValue placeholder="Choose a provider" />
              </SelectTrigger>
              <SelectContent>
                {PROVIDERS.map((p) => (
                  <SelectItem key={p} value={p}>
                    {p}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <Field id="model" label="Model id" error={err("model")}>
            <Input
              id="model"
              value={draft.model}
              disabled={editing}
              aria-invalid={err("model") ? true : undefined}
              onChange={(e) => set({ model: e.target.value })}
            />
          </Field>
          <Field id="unit" label="Billing unit" error={err("unit")}>
            <Select value={draft.unit} onValueChange={(v) => set({ unit: v })}>
              <SelectTrigger id="unit" aria-label="Billing unit">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {UNITS.map((u) => (
                  <SelectItem key={u.value} value={u.value}>
                    {u.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        </div>

        <fieldset className="space-y-3">
          <legend className="text-[13px] font-semibold text-zinc-900">
            Standard rates (USD per 1M tokens)
          </legend>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
            {RATES.map((r) => rateInput("rates", r.key, `${r.label} rate`))}
          </div>
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-[13px] font-semibold text-zinc-900">Long-context bracket</legend>
          <p className="text-xs text-zinc-500">
            Above the threshold (input tokens, cached reads and writes included) the long rates replace the
            standard ones for the whole request. Leave every field empty for a card without one.
          </p>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
            <Field id="long-threshold" label="Threshold (input tokens)" error={err("longContext.threshold")}>
              <Input
                id="long-threshold"
                inputMode="numeric"
                value={draft.long.threshold}
                aria-invalid={err("longContext.threshold") ? true : undefined}
                onChange={(e) => set({ long: { ...draft.long, threshold: e.target.value } })}
              />
            </Field>
            {RATES.map((r) => rateInput("long", r.key, `${r.label.toLowerCase()} rate`))}
          </div>
          {err("longContext") && !Object.keys(fieldErrors).some((k) => k.startsWith("longContext.")) ? (
            <p className="text-xs text-red-600">{err("longContext")}</p>
          ) : null}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          {area(
            "aliases",
            "Aliases",
            "aliases",
            "line",
            "One exact id per line (dated snapshots, Bedrock ids).",
          )}
          {area(
            "patterns",
            "Patterns",
            "patterns",
            "line",
            "One regular expression per line, case-insensitive, at most 200 characters; nested quantifiers are refused.",
          )}
          {area(
            "regions",
            "Region multipliers",
            "regionMultipliers",
            "key",
            "eu-west-1 = 1.1, or endpoint:global = 1",
          )}
          {area("tiers", "Service-tier multipliers", "tierMultipliers", "key", "flex = 0.5, priority = 1.75")}
          {area(
            "unitPrices",
            "Unit prices (media)",
            "unitPrices",
            "key",
            "default = 0.04, hd:1024x1792 = 0.12",
          )}
          {area("notes", "Notes", "notes", "key", "Caveats shown beside the card.")}
        </div>

        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <Field id="source" label="Source URL" error={err("source")}>
            <Input
              id="source"
              type="url"
              value={draft.source}
              aria-invalid={err("source") ? true : undefined}
              onChange={(e) => set({ source: e.target.value })}
            />
          </Field>
          <Field id="sourceDate" label="Source date" error={err("sourceDate")}>
            <Input
              id="sourceDate"
              type="date"
              max={today()}
              value={draft.sourceDate}
              aria-invalid={err("sourceDate") ? true : undefined}
              onChange={(e) => set({ sourceDate: e.target.value })}
            />
          </Field>
        </div>

        <FormError
          message={
            Object.keys(fieldErrors).length > 0
              ? "The card was not saved: fix the fields marked below."
              : message || null
          }
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : editing ? "Save card" : reprice ? "Save and re-price" : "Add card"}
          </Button>
          {saved ? (
            <span role="status" className="text-[13px] text-emerald-700">
              Saved. Budget checks use it now.
            </span>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
