"use client";

import { Button } from "@/components/ui/button";
import { AlertIcon } from "@/components/ui/icons";

/** Unexpected failures: a calm message and a retry, never a stack trace. */
export default function ErrorPage({
  reset,
  error,
}: {
  reset: () => void;
  error: Error & { digest?: string };
}) {
  return (
    <div className="flex min-h-[60dvh] flex-col items-center justify-center px-6 text-center">
      <span className="flex size-10 items-center justify-center rounded-lg border border-red-200 bg-red-50 text-red-600">
        <AlertIcon size={18} />
      </span>
      <h1 className="mt-4 text-lg font-semibold tracking-tight text-zinc-900">Something went wrong</h1>
      <p className="mt-1.5 max-w-sm text-[13px] text-zinc-500">
        The page could not be loaded. Try again; if it keeps failing, the server log has the details
        {error.digest ? (
          <>
            {" "}
            (reference <code className="font-mono text-xs">{error.digest}</code>)
          </>
        ) : null}
        .
      </p>
      <Button variant="secondary" className="mt-5" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
