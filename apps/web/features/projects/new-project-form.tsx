"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { useTRPC } from "@/lib/trpc/client";
import { useMounted } from "@/lib/use-mounted";
import { type Mode, ModeField, PERIODS, PeriodLimitsField, perPeriod } from "./budget-fields";

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
        const parsed = perPeriod((p) => parseLimit(String(form.get(`limit-${p}`) ?? "")));
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

      <ModeField defaultMode="alert_only" />

      <PeriodLimitsField
        hint="Spend caps in USD per UTC day, ISO week and calendar month. Leave a period empty for no cap; set at least one."
        defaults={{ daily: "", weekly: "", monthly: "100" }}
      />

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
