"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { TerminalIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { useNewKey } from "./new-key";

/**
 * How to point a Solwyn SDK at this Breakwater: two environment variables. While a key just
 * created is on screen, the snippet carries it, so one Copy gives a working .env.
 */
export function ConnectSdk({ sdkBaseUrl }: { sdkBaseUrl: string }) {
  const { newKey } = useNewKey();
  const env = `SOLWYN_API_URL=${sdkBaseUrl}\nSOLWYN_API_KEY=${newKey?.apiKey ?? "sk_proj_…"}`;
  return (
    <Card>
      <CardHeader
        title="Connect an SDK"
        description="The Solwyn SDKs (TypeScript and Python) talk to Breakwater with no code change. Set these where your app runs."
      />
      <div className="space-y-4 px-5 py-4">
        <div className="overflow-hidden rounded-lg border border-zinc-800 bg-zinc-950">
          <div className="flex items-center justify-between border-b border-white/10 px-3 py-1.5">
            <span className="flex items-center gap-1.5 text-[11px] text-zinc-400">
              <TerminalIcon size={13} /> .env
            </span>
            <CopyButton value={env} label="Copy .env" tone="dark" className="h-6" />
          </div>
          <pre className="overflow-x-auto px-4 py-3 font-mono text-[12.5px] leading-6 text-zinc-200">
            <span className="text-sky-300">SOLWYN_API_URL</span>=
            <span data-testid="sdk-base-url">{sdkBaseUrl}</span>
            {"\n"}
            <span className="text-sky-300">SOLWYN_API_KEY</span>=
            {newKey ? (
              <span data-testid="sdk-api-key">{newKey.apiKey}</span>
            ) : (
              <span className="text-zinc-500">sk_proj_… (a key above)</span>
            )}
          </pre>
        </div>
        {newKey ? (
          <p className="text-xs text-zinc-500" data-testid="sdk-key-note">
            With the key “{newKey.name}” you just created — copy it now, it is not shown again.
            {newKey.readOnly ? " It is read-only: it fetches price hints, and every write is refused." : ""}
          </p>
        ) : null}
        <ul className="grid gap-3 text-xs text-zinc-500 sm:grid-cols-3">
          <li>
            <span className="font-medium text-zinc-700">Budget checks</span> answer within the SDK&apos;s 1 s
            timeout; past it the SDK fails open.
          </li>
          <li>
            <span className="font-medium text-zinc-700">Metadata only</span>: token counts, costs and breaker
            states. Prompts and responses never leave your app.
          </li>
          <li>
            <span className="font-medium text-zinc-700">Read-only keys</span> can fetch price hints but are
            refused on every write.
          </li>
        </ul>
      </div>
    </Card>
  );
}
