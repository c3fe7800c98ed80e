"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { useTRPC } from "@/lib/trpc/client";
import { useMounted } from "@/lib/use-mounted";
import { MODE_HELP, MODE_LABEL } from "./format";

type Mode = "alert_only" | "hard_deny";
const PERIODS = ["daily", "weekly", "monthly"] as const;

function parseLimit(raw: string): number | undefined {
  const v = raw.trim();
  return v === "" ? undefined : Number(v);
}

export function NewProjectForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const mounted = useMounted();
  const [localError, setLocalError] = useState<string | null>(null);
  const create = useMutation(
    trpc.project.create.mutationOptions({
      onSuccess: async (project) => {
        await queryClient.invalidateQueries({ queryKey: trpc.project.list.queryKey() });
        router.push(`/projects/${project.id}`);
        router.refresh();
      },
    }),
  );

  return (
    <form
      className="space-y-8"
      onSubmit={(e) => {
        e.preventDefault();
        // Read from the form itself: values typed before hydration count too.
        const form = new FormData(e.currentTarget);
        const name = String(form.get("name") ?? "");
        const mode = (form.get("mode") === "hard_deny" ? "hard_deny" : "alert_only") satisfies Mode;
        const parsed = Object.fromEntries(
          PERIODS.map((p) => [p, parseLimit(String(form.get(`limit-${p}`) ?? ""))]),
        ) as Record<(typeof PERIODS)[number], number | undefined>;
        if (PERIODS.every((p) => parsed[p] === undefined)) {
          setLocalError("Set at least one period limit (daily, weekly or monthly).");
          return;
        }
        if (PERIODS.some((p) => parsed[p] !== undefined && !(Number(parsed[p]) > 0))) {
          setLocalError("Limits are amounts in USD greater than 0.");
          return;
        }
        setLocalError(null);
        create.mutate({ name, mode, limits: parsed });
      }}
    >
      <div className="max-w-md">
        <Label htmlFor="project-name">Project name</Label>
        <Input id="project-name" name="name" required maxLength={100} autoFocus placeholder="checkout-api" />
        <Hint>One project per application or service whose SDK traffic you want to budget.</Hint>
      </div>

      <fieldset>
        <legend className="mb-1.5 text-[13px] font-medium text-zinc-800">Mode</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {(Object.keys(MODE_LABEL) as Mode[]).map((m) => (
            <label
              key={m}
              className="flex cursor-pointer gap-3 rounded-lg border border-zinc-200 bg-white p-3.5 shadow-xs transition-colors hover:border-zinc-300 has-[:checked]:border-brand-500 has-[:checked]:ring-3 has-[:checked]:ring-brand-100"
            >
              <input
                type="radio"
                name="mode"
                value={m}
                defaultChecked={m === "alert_only"}
                className="mt-0.5 accent-brand-600"
              />
              <span>
                <span className="block text-[13px] font-medium text-zinc-900">{MODE_LABEL[m]}</span>
                <span className="mt-0.5 block text-xs leading-relaxed text-zinc-500">{MODE_HELP[m]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend className="mb-1 text-[13px] font-medium text-zinc-800">Period limits</legend>
        <p className="mb-3 text-xs text-zinc-500">
          Spend caps in USD per UTC day, ISO week and calendar month. Leave a period empty for no cap; set at
          least one.
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          {PERIODS.map((p) => (
            <div key={p}>
              <Label htmlFor={`limit-${p}`}>{p.charAt(0).toUpperCase() + p.slice(1)}</Label>
              <div className="relative">
                <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-[13px] text-zinc-400">
                  $
                </span>
                <Input
                  id={`limit-${p}`}
                  name={`limit-${p}`}
                  inputMode="decimal"
                  type="number"
                  min="0"
                  step="0.01"
                  placeholder="No limit"
                  className="pl-6 tabular-nums"
                  defaultValue={p === "monthly" ? "100" : ""}
                />
              </div>
            </div>
          ))}
        </div>
      </fieldset>

      <div className="space-y-4 border-t border-zinc-200 pt-6">
        <FormError message={localError ?? create.error?.message} />
        <div className="flex items-center gap-2">
          <Button type="submit" disabled={!mounted || create.isPending || create.isSuccess}>
            {create.isPending || create.isSuccess ? "Creating…" : "Create project"}
          </Button>
          <ButtonLink href="/projects" variant="ghost">
            Cancel
          </ButtonLink>
        </div>
      </div>
    </form>
  );
}
