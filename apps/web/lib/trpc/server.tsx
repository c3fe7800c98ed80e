import { appRouter, createCaller, createContext } from "@breakwater/api";
import {
  dehydrate,
  type FetchInfiniteQueryOptions,
  type FetchQueryOptions,
  HydrationBoundary,
} from "@tanstack/react-query";
import { TRPCError } from "@trpc/server";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache, type ReactNode } from "react";
import { getRuntime } from "@/lib/server/runtime";
import { makeQueryClient } from "./query-client";

/** One tRPC context per request (the session is read once). */
const getContext = cache(async () => {
  // Reading the request first also marks every page using it as dynamic (never prerendered).
  const requestHeaders = new Headers(await headers());
  const { deps, auth } = getRuntime();
  return createContext({ deps, auth, headers: requestHeaders });
});

export const getQueryClient = cache(makeQueryClient);

/** Query options for prefetching in Server Components. */
export const trpc = createTRPCOptionsProxy({
  ctx: getContext,
  router: appRouter,
  queryClient: getQueryClient,
});

/** Direct server-side calls (same procedures, same guards as over HTTP). */
export const getCaller = cache(async () => createCaller(await getContext()));

// biome-ignore lint/suspicious/noExplicitAny: any tRPC query's options, whatever its data type
type AnyQueryOptions = FetchQueryOptions<any, any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: any tRPC infinite query's options
type AnyInfiniteQueryOptions = FetchInfiniteQueryOptions<any, any, any, any, any>;

/**
 * Prefetches queries for the client components under a page's HydrateClient and waits for all of
 * them, so the server render and the browser's hydration both start from the finished data (a
 * pending query is never dehydrated, see makeQueryClient). A query that fails is not handed over:
 * the client component shows its error state after loading, as it would without a prefetch.
 */
export async function prefetch(...options: (AnyQueryOptions | AnyInfiniteQueryOptions)[]): Promise<void> {
  const queryClient = getQueryClient();
  await Promise.all(
    options.map((o) =>
      "initialPageParam" in o
        ? queryClient.prefetchInfiniteQuery(o as AnyInfiniteQueryOptions)
        : queryClient.prefetchQuery(o),
    ),
  );
}

/** Hands the server-prefetched queries to client components. */
export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

/** True when a server-side call failed with the given tRPC code. */
export function isTRPCCode(err: unknown, code: TRPCError["code"]): boolean {
  return err instanceof TRPCError && err.code === code;
}

/** The signed-in viewer (user, active organization, role, permissions) or null. */
export const getViewer = cache(async () => (await getCaller()).me.get());

type Viewer = NonNullable<Awaited<ReturnType<typeof getViewer>>>;

/**
 * The viewer of an organization page, or off to sign-in or onboarding. The (app) layout redirects
 * too, but Next renders a page beside its layout, not after it: a page that asked for its
 * organization's data first threw PRECONDITION_FAILED ("Create or join an organization first")
 * into the server log before the layout's redirect won. Every (app) page starts here.
 */
export async function getOrgViewer(): Promise<
  Viewer & { organization: NonNullable<Viewer["organization"]> }
> {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in");
  if (!viewer.organization) redirect("/onboarding");
  return viewer as Viewer & { organization: NonNullable<Viewer["organization"]> };
}
