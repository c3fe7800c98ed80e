"use client";

import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { customRangeError, RANGE_KEYS, RANGE_LABEL, type RangeKey, type UsageRange, utcDay } from "./range";

/**
 * The range: a preset (24 h, 7 d, 30 d, 90 d) or custom from/to dates (UTC, both included).
 * Choosing "Custom" shows the two dates; the range changes when they are applied.
 */
export function RangePicker({
  range,
  onChange,
}: {
  range: UsageRange;
  onChange: (next: { key: RangeKey; from?: string; to?: string }) => void;
}) {
  const id = useId();
  const [custom, setCustom] = useState(range.key === "custom");
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [error, setError] = useState<string | null>(null);

  // Follow the URL (back/forward, a shared link).
  useEffect(() => {
    setCustom(range.key === "custom");
    setFrom(range.from);
    setTo(range.to);
    setError(null);
  }, [range.key, range.from, range.to]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const why = customRangeError(from, to, utcDay(new Date()));
    setError(why);
    if (!why) onChange({ key: "custom", from, to });
  };

  return (
    <div className="flex flex-wrap items-start gap-2">
      <Select
        value={custom ? "custom" : range.key}
        onValueChange={(v) => {
          const key = v as RangeKey;
          if (key === "custom") {
            setCustom(true);
            return;
          }
          setCustom(false);
          onChange({ key });
        }}
      >
        <SelectTrigger aria-label="Range" className="h-8 w-36">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {RANGE_KEYS.map((k) => (
            <SelectItem key={k} value={k}>
              {k === "custom" ? "Custom range" : `Last ${RANGE_LABEL[k]}`}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {custom ? (
        <form
          onSubmit={apply}
          aria-label="Custom range"
          className="flex flex-wrap items-center gap-2"
          noValidate
        >
          <label htmlFor={`${id}-from`} className="sr-only">
            From
          </label>
          <Input
            id={`${id}-from`}
            type="date"
            value={from}
            max={to || undefined}
            onChange={(e) => setFrom(e.target.value)}
            className="h-8 w-38"
            aria-invalid={error ? true : undefined}
          />
          <span aria-hidden className="text-xs text-zinc-400">
            to
          </span>
          <label htmlFor={`${id}-to`} className="sr-only">
            To
          </label>
          <Input
            id={`${id}-to`}
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => setTo(e.target.value)}
            className="h-8 w-38"
            aria-invalid={error ? true : undefined}
          />
          <Button type="submit" size="md" variant="secondary">
            Apply
          </Button>
          {error ? (
            <p role="alert" className="w-full text-xs text-red-700">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
