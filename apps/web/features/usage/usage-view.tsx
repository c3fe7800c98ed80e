"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ButtonLink } from "@/components/ui/button";
import { AlertIcon, SpinnerIcon, UsageIcon } from "@/components/ui/icons";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { formatClock } from "./format";
import { describeRange, describeWindow, overviewInput, rangeSearch, utcDay } from "./range";
import { RangePicker } from "./range-picker";
import { GROUPINGS, type Grouping, Limits, UsageDashboard } from "./usage-dashboard";

/** The page refetches this often, so a deploy can be watched as its calls roll up. */
export const REFRESH_MS = 15_000;

/** The usage page's body: range, freshness, totals, series, limits and breakdowns, kept fresh. */
export function UsageView({
  projectId,
  projectNames,
}: {
  projectId?: string;
  projectNames?: Record<string, string>;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { range, input } = overviewInput(params, projectId);
  const by = params.get("by");
  const grouping: Grouping = GROUPINGS.includes(by as Grouping) ? (by as Grouping) : "provider";

  const query = useQuery({
    ...trpc.usage.overview.queryOptions(input),
    placeholderData: (prev) => prev,
    refetchInterval: REFRESH_MS,
  });

  const navigate = (search: string) =>
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  const setGrouping = (g: Grouping) => {
    const next = new URLSearchParams(params.toString());
    if (g === "provider") next.delete("by");
    else next.set("by", g);
    navigate(next.toString());
  };

  const data = query.data;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <RangePicker range={range} onChange={(next) => navigate(rangeSearch(params, next))} />
        <Freshness
          rolledUpTo={data?.rolledUpTo ?? null}
          known={data !== undefined}
          fetching={query.isFetching}
        />
      </div>
      <p className="-mt-2 text-xs text-zinc-500" data-testid="range-description">
        {range.lastHours
          ? `Last ${range.lastHours} hours${data ? `, ${describeWindow(data.range)}` : " (UTC)"}`
          : describeRange(range)}
        {range.granularity === "hour" ? " · by hour" : " · by day"}
      </p>
      {range.invalid ? (
        <p role="alert" className="flex items-center gap-1.5 text-xs text-amber-800">
          <AlertIcon size={13} /> The range in the link was not used: {range.invalid} Showing the last 7 days.
        </p>
      ) : null}

      {query.isPending ? (
        <LoadingState label="Loading usage" rows={6} />
      ) : query.isError && !data ? (
        <ErrorState
          title="Usage could not be loaded"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : data ? (
        <>
          {query.isError ? (
            <ErrorState
              title="The last refresh failed; showing the figures from before"
              message={query.error.message}
              onRetry={() => void query.refetch()}
            />
          ) : null}
          {data.totals.calls === 0 ? (
            <div className="space-y-5">
              <EmptyState
                icon={<UsageIcon size={18} />}
                title="No usage in this range"
                description="Each completed call reports its tokens, model and outcome (never the prompt). Breakwater prices it and rolls it up, so it appears here within a minute. Try a longer range, or connect an SDK with a project key."
              >
                {projectId ? null : (
                  <ButtonLink href="/projects" variant="secondary">
                    Get a project key
                  </ButtonLink>
                )}
              </EmptyState>
              {data.limits.length > 0 ? <Limits limits={data.limits} /> : null}
            </div>
          ) : (
            <UsageDashboard
              data={data}
              granularity={range.granularity}
              grouping={grouping}
              onGroupingChange={setGrouping}
              projectNames={projectNames}
              scope={projectId}
            />
          )}
        </>
      ) : null}
    </div>
  );
}

function Freshness({
  rolledUpTo,
  known,
  fetching,
}: {
  rolledUpTo: string | null;
  known: boolean;
  fetching: boolean;
}) {
  const sameDay = rolledUpTo && utcDay(new Date(rolledUpTo)) === utcDay(new Date());
  return (
    <p className="flex items-center gap-1.5 text-xs text-zinc-500" data-testid="freshness">
      {fetching ? (
        <SpinnerIcon size={12} className="animate-spin" aria-hidden />
      ) : (
        <span aria-hidden className="size-1.5 rounded-full bg-emerald-500" />
      )}
      <span>
        {!known
          ? "Loading…"
          : rolledUpTo
            ? `Rolled up to ${sameDay ? "" : `${utcDay(new Date(rolledUpTo))} `}${formatClock(rolledUpTo)}`
            : "Nothing rolled up yet"}
      </span>
      <span className="text-zinc-400">· refreshes every {REFRESH_MS / 1000} s</span>
    </p>
  );
}
