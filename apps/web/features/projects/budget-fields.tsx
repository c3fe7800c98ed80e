/**
 * The fields a project's budget is made of, shared by "New project" and the project's budget
 * settings: the mode as two radio cards, and a USD amount per period window. Uncontrolled inputs
 * (`name="mode"`, `name="limit-<period>"`): the forms read them with FormData, so values typed
 * before hydration count too.
 */
import type { ComponentProps } from "react";
import { Input, Label } from "@/components/ui/form";
import { FieldError } from "@/features/operator/plans-console";
import { MODE_HELP, MODE_LABEL } from "./format";

export type Mode = "alert_only" | "hard_deny";
export const PERIODS = ["daily", "weekly", "monthly"] as const;
export type Period = (typeof PERIODS)[number];

/** One value per period window. */
export function perPeriod<T>(f: (p: Period) => T): Record<Period, T> {
  return { daily: f("daily"), weekly: f("weekly"), monthly: f("monthly") };
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The budget mode: alert only or hard deny, each with what it does. */
export function ModeField({ defaultMode }: { defaultMode: Mode }) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-[13px] font-medium text-zinc-800">Mode</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {(Object.keys(MODE_LABEL) as Mode[]).map((m) => (
          <label
            key={m}
            className="flex cursor-pointer gap-3 rounded-lg border border-zinc-200 bg-white p-3.5 shadow-xs transition-colors hover:border-zinc-300 has-[:checked]:border-brand-500 has-[:checked]:ring-3 has-[:checked]:ring-brand-100 has-[:disabled]:cursor-default"
          >
            <input
              type="radio"
              name="mode"
              value={m}
              defaultChecked={defaultMode === m}
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
  );
}

/** A dollar amount: "$" inside the field, decimal keyboard on phones, empty for none. */
export function UsdInput(props: ComponentProps<typeof Input>) {
  return (
    <div className="relative">
      <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-[13px] text-zinc-400">
        $
      </span>
      <Input inputMode="decimal" className="pl-6 tabular-nums" {...props} />
    </div>
  );
}

/**
 * One limit per period window (UTC day, ISO week, calendar month), each with its own error, and an
 * error for the limits as a whole (none set).
 */
export function PeriodLimitsField({
  hint,
  defaults,
  errors = {},
  error,
}: {
  hint: string;
  defaults: Record<Period, string>;
  errors?: Partial<Record<Period, string>>;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="mb-1 text-[13px] font-medium text-zinc-800">Period limits</legend>
      <p className="mb-3 text-xs text-zinc-500">{hint}</p>
      <div className="grid gap-3 sm:grid-cols-3">
        {PERIODS.map((p) => (
          <div key={p} data-testid={`field-limit-${p}`}>
            <Label htmlFor={`limit-${p}`}>{`${capitalize(p)} limit`}</Label>
            <UsdInput
              id={`limit-${p}`}
              name={`limit-${p}`}
              placeholder="No limit"
              defaultValue={defaults[p]}
              aria-invalid={errors[p] ? true : undefined}
            />
            <FieldError message={errors[p]} />
          </div>
        ))}
      </div>
      <div data-testid="field-limits">
        <FieldError message={error} />
      </div>
    </fieldset>
  );
}
