import { QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

/** One QueryClient shape for the server (prefetch) and the browser (hydrate), speaking superjson. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 15_000, retry: 1, refetchOnWindowFocus: false },
      // Only finished queries go to the browser (TanStack's default: successful ones). A query still
      // pending when the page dehydrated would reach the server render and the browser's hydration
      // at different moments: the server renders its loading state, the browser — holding the
      // streamed result by then — renders the data, and React throws away the server's HTML (#418).
      // Pages therefore await their prefetches (`prefetch` in ./server); anything not prefetched
      // renders loading on both sides and loads in the browser.
      dehydrate: { serializeData: superjson.serialize },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
