"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError, Input, Label } from "@/components/ui/form";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { LoadingState } from "@/components/ui/states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTRPC } from "@/lib/trpc/client";
import { errorInfo } from "./format";
import { PROVIDERS } from "./price-card-defaults";
import { formatRate } from "./price-catalogue";

const TIERS = ["none", "auto", "default", "flex", "scale", "priority", "standard", "optimized"] as const;
const VIA: Record<string, string> = {
  exact: "model id",
  alias: "alias",
  normalized: "normalised id",
  pattern: "pattern",
  local_lane: "local lane (always 0)",
  free_variant: "free variant",
  fallback_provider: "another provider's card",
};

type Entry = { provider: string; model: string };

/**
 * "Why this hint": a declared chain (primary + fallbacks, as an SDK sends it on a check) and an
 * input estimate → each entry's card, match, bracket and rates, and the price_hints the wire
 * answers, computed by the server with the budget check's own function.
 */
export function PriceHintExplainer() {
  const trpc = useTRPC();
  const [chain, setChain] = useState<Entry[]>([
    { provider: "openai", model: "gpt-5.5" },
    { provider: "anthropic", model: "claude-sonnet-4-5" },
  ]);
  const [tokens, setTokens] = useState("1000");
  const [tier, setTier] = useState<(typeof TIERS)[number]>("none");
  const [region, setRegion] = useState("");
  const [asked, setAsked] = useState<Record<string, unknown> | null>(null);
  const explained = useQuery({
    ...trpc.operator.explainPriceHints.queryOptions((asked ?? {}) as never),
    enabled: asked !== null,
    retry: false,
  });
  const { message, fieldErrors } = errorInfo(explained.error);

  const submit = () => {
    const [primary, ...fallbacks] = chain;
    const n = Number(tokens);
    setAsked({
      provider: primary?.provider,
      model: primary?.model ?? "",
      fallbackProviders: fallbacks.map((f) => f.provider),
      fallbackModels: fallbacks.map((f) => f.model),
      estimatedInputTokens: tokens.trim() === "" || Number.isNaN(n) ? tokens : n,
      serviceTier: tier === "none" ? null : tier,
      region: region.trim() === "" ? null : region.trim(),
      // A new object each time: asking twice re-computes against the catalogue as it is now.
      at: Date.now(),
    });
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Chain and estimate"
          description="The primary model first, then each fallback, exactly as the SDK declares them on a budget check."
        />
        <form
          className="space-y-4 p-5"
          aria-label="Chain"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <ol className="space-y-3">
            {chain.map((entry, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a chain position is its identity
              <li key={i} className="grid grid-cols-[1fr_auto] items-end gap-2 sm:grid-cols-[12rem_1fr_auto]">
                <div className="col-span-2 sm:col-span-1">
                  <Label htmlFor={`chain-provider-${i}`}>
                    {i === 0 ? "Primary provider" : `Fallback ${i} provider`}
                  </Label>
                  <Select
                    value={entry.provider}
                    onValueChange={(v) =>
                      setChain(chain.map((c, j) => (j === i ? { ...c, provider: v } : c)))
                    }
                  >
                    <SelectTrigger
                      id={`chain-provider-${i}`}
                      aria-label={i === 0 ? "Primary provider" : `Fallback ${i} provider`}
                    >
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {PROVIDERS.map((p) => (
                        <SelectItem key={p} value={p}>
                          {p}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <div>
                  <Label htmlFor={`chain-model-${i}`}>
                    {i === 0 ? "Primary model" : `Fallback ${i} model`}
                  </Label>
                  <Input
                    id={`chain-model-${i}`}
                    value={entry.model}
                    onChange={(e) =>
                      setChain(chain.map((c, j) => (j === i ? { ...c, model: e.target.value } : c)))
                    }
                  />
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  aria-label={i === 0 ? "Primary cannot be removed" : `Remove fallback ${i}`}
                  disabled={i === 0}
                  onClick={() => setChain(chain.filter((_, j) => j !== i))}
                >
                  <TrashIcon size={14} />
                </Button>
              </li>
            ))}
          </ol>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={chain.length >= 9}
            onClick={() => setChain([...chain, { provider: "openai", model: "" }])}
          >
            <PlusIcon size={14} /> Add fallback
          </Button>
          <div className="grid gap-4 sm:grid-cols-3">
            <div>
              <Label htmlFor="estimate">Estimated input tokens</Label>
              <Input
                id="estimate"
                inputMode="numeric"
                value={tokens}
                onChange={(e) => setTokens(e.target.value)}
              />
              {fieldErrors.estimatedInputTokens ? (
                <p className="mt-1 text-xs text-red-600">{fieldErrors.estimatedInputTokens}</p>
              ) : null}
            </div>
            <div>
              <Label htmlFor="tier">Service tier (optional)</Label>
              <Select value={tier} onValueChange={(v) => setTier(v as (typeof TIERS)[number])}>
                <SelectTrigger id="tier" aria-label="Service tier">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {TIERS.map((t) => (
                    <SelectItem key={t} value={t}>
                      {t === "none" ? "None" : t}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div>
              <Label htmlFor="region">Provider region (optional)</Label>
              <Input
                id="region"
                value={region}
                placeholder="eu-west-1"
                onChange={(e) => setRegion(e.target.value)}
              />
            </div>
          </div>
          <FormError message={explained.error ? message : null} />
          <Button type="submit">Explain</Button>
        </form>
      </Card>

      {asked === null ? null : explained.isPending ? (
        <LoadingState label="Explaining" rows={4} />
      ) : explained.data ? (
        <Card>
          <CardHeader
            title="price_hints"
            description="What the budget check answers for this chain and estimate (cheapest priced provider = 1.0). Hints use standard-tier list prices; a tier or region only changes what a call costs."
          />
          <div className="space-y-4 p-4">
            <pre
              data-testid="explain-hints"
              className="overflow-x-auto rounded-md bg-zinc-950 px-3 py-2 font-mono text-[12px] text-emerald-300"
            >
              {explained.data.priceHintsJson}
            </pre>
            <Table aria-label="Chain entries">
              <TableHeader>
                <TableRow>
                  <TableHead>#</TableHead>
                  <TableHead>Entry</TableHead>
                  <TableHead>Card</TableHead>
                  <TableHead>Matched by</TableHead>
                  <TableHead>Bracket</TableHead>
                  <TableHead>Input / output per 1M</TableHead>
                  <TableHead>Cached / writes 5m / 1h</TableHead>
                  <TableHead>Hint rate</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {explained.data.entries.map((e) => (
                  <TableRow key={e.position} data-testid={`explain-entry-${e.position}`}>
                    <TableCell className="tabular-nums">
                      {e.position === 0 ? "Primary" : `Fallback ${e.position}`}
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {e.provider}/{e.model}
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {e.card ? (
                        e.card.id ? (
                          <Link
                            href={`/plans/prices/${e.card.id}`}
                            className="underline-offset-4 hover:underline"
                          >
                            {e.card.provider}/{e.card.model}
                          </Link>
                        ) : (
                          `${e.card.provider}/${e.card.model}`
                        )
                      ) : (
                        <Badge tone="amber">Unpriced</Badge>
                      )}
                    </TableCell>
                    <TableCell>
                      {e.matched ? (
                        <>
                          {VIA[e.matched.via] ?? e.matched.via}
                          {e.matched.by ? (
                            <code className="ml-1 text-[11px] text-zinc-500">{e.matched.by}</code>
                          ) : null}
                        </>
                      ) : (
                        "—"
                      )}
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {e.bracket
                        ? e.bracket.kind === "long"
                          ? `Long (> ${e.bracket.threshold?.toLocaleString("en-US")})`
                          : e.bracket.threshold
                            ? `Standard (≤ ${e.bracket.threshold.toLocaleString("en-US")})`
                            : "Standard"
                        : "—"}
                    </TableCell>
                    <TableCell className="whitespace-nowrap tabular-nums">
                      {e.rates
                        ? `${formatRate(e.rates.inputPerMtok)} / ${formatRate(e.rates.outputPerMtok)}`
                        : "—"}
                    </TableCell>
                    <TableCell className="whitespace-nowrap tabular-nums">
                      {e.rates
                        ? `${formatRate(e.rates.cachedInputPerMtok)} / ${formatRate(e.rates.cacheWrite5mPerMtok)} / ${formatRate(e.rates.cacheWrite1hPerMtok)}`
                        : "—"}
                      {e.costMultiplier ? (
                        <span className="block text-[11px] text-zinc-500">
                          cost × {e.costMultiplier.tier} tier (
                          {e.costMultiplier.tierStatus.replaceAll("_", " ")}) × {e.costMultiplier.region}{" "}
                          region
                        </span>
                      ) : null}
                    </TableCell>
                    <TableCell className="whitespace-nowrap tabular-nums">
                      {e.hintRate === null
                        ? "—"
                        : `$${(e.hintRate * 1e6).toLocaleString("en-US", { maximumFractionDigits: 6 })}/1M`}
                      {e.decidesHint ? (
                        <Badge tone="brand" className="ml-1.5">
                          decides {e.provider}
                        </Badge>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
