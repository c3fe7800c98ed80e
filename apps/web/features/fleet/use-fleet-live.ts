"use client";

import type { AppRouter, FleetLiveMessage } from "@breakwater/api";
import { applyCountedChange } from "@breakwater/core/fleet-status";
import { useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";

type FleetOverview = inferRouterOutputs<AppRouter>["fleet"]["overview"];

/** How the page learns about breaker changes right now. */
export type LiveMode = "connecting" | "streaming" | "polling";

/** Poll interval while the stream is down (the product promises views refresh within 5 s). */
export const POLL_MS = 5_000;

/**
 * Keeps the fleet queries fresh: every change pushed on `fleet.live` (server-sent events) refetches
 * the fleet queries it concerns; while the stream is down the caller polls instead (`mode` says which).
 * `nextStaleAt` schedules one refetch when the next live instance would turn stale with no report.
 * The provider page's paged tables (infinite queries) are fleet queries too: each refetches the
 * pages it has loaded, keeping them on screen meanwhile, so a push never empties or jumps the list.
 */
export function useFleetLive(opts: {
  /** Only changes that match refetch (the provider page watches one project × provider). */
  matches?: (change: Extract<FleetLiveMessage, { type: "change" }>) => boolean;
  nextStaleAt?: string | null;
}): LiveMode {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(false);
  const everStreamed = useRef(false);
  const matchesRef = useRef(opts.matches);
  matchesRef.current = opts.matches;
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef(false);
  const again = useRef(false);

  const refetch = useCallback(() => {
    // Changes arriving together (an outage opens many breakers at once) cost one refetch.
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      // A change arriving while a refetch is in flight never cancels it (a report that also opens an
      // incident pushes twice; cancelling restarted the first refetch and delayed what it would have
      // shown): it runs once more when that one is done, so the later change is not missed either.
      if (inFlight.current) {
        again.current = true;
        return;
      }
      const run = () => {
        inFlight.current = true;
        again.current = false;
        void queryClient
          .invalidateQueries({ queryKey: trpc.fleet.pathKey() }, { cancelRefetch: false })
          .finally(() => {
            inFlight.current = false;
            if (again.current) run();
          });
      };
      run();
    }, 50);
  }, [queryClient, trpc]);

  // The pushed change moves its instance between the overview's counts right away; the refetch it
  // also starts brings the rest (since when, episodes, incidents) and replaces this guess.
  const showAtOnce = useCallback(
    (msg: Extract<FleetLiveMessage, { type: "change" }>) => {
      if (msg.kind === "incident" || msg.from === undefined) return;
      const change = {
        projectId: msg.projectId,
        provider: msg.provider,
        from: msg.from,
        to: msg.kind === "expired" ? ("stale" as const) : msg.state,
      };
      queryClient.setQueriesData<FleetOverview>(trpc.fleet.overview.queryFilter(), (old) =>
        old ? (applyCountedChange(old, change) ?? old) : old,
      );
    },
    [queryClient, trpc],
  );

  const sub = useSubscription(
    trpc.fleet.live.subscriptionOptions(undefined, {
      onData(msg: FleetLiveMessage) {
        if (msg.type === "ready") {
          everStreamed.current = true;
          setReady(true);
          // Whatever changed while the stream was being (re)opened.
          refetch();
        } else if (msg.type === "resync" || !matchesRef.current || matchesRef.current(msg)) {
          if (msg.type === "change") showAtOnce(msg);
          // An incident opened, changed or resolved: its small list is fetched again at once, not
          // behind the overview's refetch in flight (which was started by the reports before it and
          // answers without it). One still in flight was started before the incident: it is replaced.
          if (msg.type === "change" && msg.kind === "incident")
            void queryClient.invalidateQueries({ queryKey: trpc.fleet.openIncidents.pathKey() });
          refetch();
        }
      },
    }),
  );

  // A stream that is reconnecting says "ready" again once it is back.
  useEffect(() => {
    if (sub.status !== "pending") setReady(false);
  }, [sub.status]);

  useEffect(() => {
    if (!opts.nextStaleAt) return;
    const wait = Date.parse(opts.nextStaleAt) - Date.now() + 250;
    const t = setTimeout(refetch, Math.max(250, Math.min(wait, 2 ** 31 - 1)));
    return () => clearTimeout(t);
  }, [opts.nextStaleAt, refetch]);

  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  // A stream that has not come up within 5 s counts as down: poll meanwhile.
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (ready) {
      setSlow(false);
      return;
    }
    const t = setTimeout(() => setSlow(true), 5_000);
    return () => clearTimeout(t);
  }, [ready]);

  if (sub.status === "pending" && ready) return "streaming";
  return sub.status === "error" || everStreamed.current || slow ? "polling" : "connecting";
}
