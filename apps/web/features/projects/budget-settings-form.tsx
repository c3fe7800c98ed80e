"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { LockIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { QueryState } from "@/components/ui/states";
import { errorInfo } from "@/features/operator/format";
import { FieldError } from "@/features/operator/plans-console";
import { useTRPC } from "@/lib/trpc/client";
import { useMounted } from "@/lib/use-mounted";
import { type Mode, ModeField, type Period, PeriodLimitsField, perPeriod, UsdInput } from "./budget-fields";

export interface BudgetSettings {
  mode: Mode;
  limits: Record<Period, number | null>;
  thresholds: number[];
  runSpendCapUsd: number | null;
}

/** "" → null (no limit); anything else is sent as typed, so the server's message explains a bad value. */
function amountOrNull(raw: string): number | null {
  const v = raw.trim();
  return v === "" ? null : Number(v);
}

/** "50, 80 100" → [50, 80, 100]; a non-number is kept as NaN for the server to refuse. */
function parseThresholds(raw: string): number[] {
  return raw
    .split(/[\s,;%]+/)
    .filter(Boolean)
    .map((t) => Number(t));
}

/** The first message among the field errors whose key starts with `prefix`. */
export function firstError(errors: Record<string, string>, prefix: string): string | undefined {
  const key = Object.keys(errors).find((k) => k === prefix || k.startsWith(`${prefix}.`));
  return key ? errors[key] : undefined;
}

/** A stored amount as the field shows it: empty for none. */
const amountText = (usd: number | null) => (usd === null ? "" : String(usd));

/** Mode, period limits, threshold alerts and the run cap: editable by members, read-only for viewers. */
export function BudgetSettingsForm({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.budget.settings.queryOptions({ projectId }));
  return (
    <Card>
      <CardHeader
        title="Budget"
        description="Limits are UTC windows; usage is recomputed from recorded spend, never reset by a timer."
      />
      <QueryState query={settings} isEmpty={() => false}>
        {(data) => <SettingsFields projectId={projectId} initial={data} canManage={canManage} />}
      </QueryState>
    </Card>
  );
}

function SettingsFields({
  projectId,
  initial,
  canManage,
}: {
  projectId: string;
  initial: BudgetSettings;
  canManage: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const mounted = useMounted();
  const [saved, setSaved] = useState(false);
  const update = useMutation(
    trpc.budget.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.budget.settings.queryKey({ projectId }) });
        // The header's mode badge and the overview's limits are server-rendered.
        router.refresh();
      },
    }),
  );
  const { message, fieldErrors } = errorInfo(update.error);
  const disabled = !canManage;

  return (
    <form
      aria-label="Budget settings"
      className="space-y-6 px-5 py-5"
      onSubmit={(e) => {
        e.preventDefault();
        if (!canManage) return;
        setSaved(false);
        const form = new FormData(e.currentTarget);
        update.mutate({
          projectId,
          mode: form.get("mode") === "hard_deny" ? "hard_deny" : "alert_only",
          limits: perPeriod((p) => amountOrNull(String(form.get(`limit-${p}`) ?? ""))),
          thresholds: parseThresholds(String(form.get("thresholds") ?? "")),
          runSpendCapUsd: amountOrNull(String(form.get("run-cap") ?? "")),
        });
      }}
    >
      {!canManage ? (
        <p
          data-testid="settings-read-only"
          className="flex items-center gap-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-[13px] text-zinc-600"
        >
          <LockIcon size={14} className="shrink-0" /> You can view these settings; members and up can change
          them.
        </p>
      ) : null}
      <fieldset disabled={disabled} className="space-y-6">
        <ModeField defaultMode={initial.mode} />

        <PeriodLimitsField
          hint="USD per UTC day, ISO week and calendar month. Leave a period empty for no limit; keep at least one."
          defaults={perPeriod((p) => amountText(initial.limits[p]))}
          errors={perPeriod((p) => fieldErrors[`limits.${p}`])}
          error={fieldErrors.limits}
        />

        <div className="grid gap-5 sm:grid-cols-2">
          <div data-testid="field-thresholds">
            <Label htmlFor="thresholds">Threshold alerts (%)</Label>
            <Input
              id="thresholds"
              name="thresholds"
              placeholder="50, 80, 100"
              defaultValue={initial.thresholds.join(", ")}
              aria-invalid={firstError(fieldErrors, "thresholds") ? true : undefined}
            />
            <FieldError message={firstError(fieldErrors, "thresholds")} />
            <Hint>
              Each percentage of a period limit sends one{" "}
              <code className="font-mono">budget_threshold_crossed</code> webhook per window (plans with
              budget webhooks). 1–1000 %.
            </Hint>
          </div>
          <div data-testid="field-run-cap">
            <Label htmlFor="run-cap">Run spend cap</Label>
            <UsdInput
              id="run-cap"
              name="run-cap"
              placeholder="No cap"
              defaultValue={amountText(initial.runSpendCapUsd)}
              aria-invalid={fieldErrors.runSpendCapUsd ? true : undefined}
            />
            <FieldError message={fieldErrors.runSpendCapUsd} />
            <Hint>
              Lifetime spend allowed to one agent run (hard deny projects refuse its calls past it).
            </Hint>
          </div>
        </div>
      </fieldset>

      {canManage ? (
        <div className="space-y-3 border-t border-zinc-100 pt-5">
          {/* Field messages stand beside their fields; the summary only points at them. */}
          <FormError
            message={Object.keys(fieldErrors).length > 0 ? "Check the highlighted fields." : message}
          />
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={!mounted || update.isPending}>
              {update.isPending ? "Saving…" : "Save budget"}
            </Button>
            {saved && !update.isPending ? (
              <span role="status" className="text-[13px] text-emerald-700">
                Saved. SDK checks use the new rules within a second.
              </span>
            ) : null}
          </div>
        </div>
      ) : null}
    </form>
  );
}
