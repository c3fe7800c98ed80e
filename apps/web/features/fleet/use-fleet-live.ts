"use client";

import type { FleetLiveMessage } from "@breakwater/api";
import { useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";

/** How the page learns about breaker changes right now. */
export type LiveMode = "connecting" | "streaming" | "polling";

/** Poll interval while the stream is down (the product promises views refresh within 5 s). */
export const POLL_MS = 5_000;

/**
 * Keeps the fleet queries fresh: every change pushed on `fleet.live` (server-sent events) refetches
 * the fleet queries it concerns; while the stream is down the caller polls instead (`mode` says which).
 * `nextStaleAt` schedules one refetch when the next live instance would turn stale with no report.
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

  const refetch = useCallback(() => {
    // Changes arriving together (an outage opens many breakers at once) cost one refetch.
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.fleet.pathKey() });
    }, 50);
  }, [queryClient, trpc]);

  const sub = useSubscription(
    trpc.fleet.live.subscriptionOptions(undefined, {
      onData(msg: FleetLiveMessage) {
        if (msg.type === "ready") {
          everStreamed.current = true;
          setReady(true);
          // Whatever changed while the stream was being (re)opened.
          refetch();
        } else if (msg.type === "resync" || !matchesRef.current || matchesRef.current(msg)) {
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
