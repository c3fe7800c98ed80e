import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "@/components/ui/logo";

const STATUS = [
  { provider: "openai", state: "Healthy", tone: "bg-emerald-400" },
  { provider: "anthropic", state: "Recovering", tone: "bg-amber-400" },
  { provider: "bedrock", state: "Down", tone: "bg-red-400" },
  { provider: "gemini", state: "Healthy", tone: "bg-emerald-400" },
];

/** Two-pane frame of the sign-in and sign-up pages. */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[1fr_minmax(0,520px)]">
      <main className="flex flex-col px-6 py-8 sm:px-12">
        <Link href="/" className="self-start">
          <Logo />
        </Link>
        <div className="mx-auto flex w-full max-w-sm flex-1 flex-col justify-center py-12">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          <p className="mt-1.5 text-[13px] text-zinc-500">{subtitle}</p>
          <div className="mt-8">{children}</div>
          <div className="mt-6 text-[13px] text-zinc-500">{footer}</div>
        </div>
      </main>
      <aside className="relative hidden overflow-hidden bg-zinc-950 lg:flex lg:flex-col lg:justify-between lg:p-12">
        <div
          className="pointer-events-none absolute inset-0 opacity-60"
          style={{
            background:
              "radial-gradient(600px circle at 80% 10%, oklch(0.46 0.14 242 / .55), transparent 60%), radial-gradient(500px circle at 10% 90%, oklch(0.62 0.14 235 / .25), transparent 60%)",
          }}
        />
        <div className="relative">
          <p className="text-xs font-medium tracking-wide text-brand-200 uppercase">Control plane</p>
          <p className="mt-3 max-w-sm text-2xl leading-snug font-semibold tracking-tight text-white">
            Every provider, every SDK instance, one calm view.
          </p>
          <p className="mt-3 max-w-sm text-[13px] leading-relaxed text-zinc-400">
            Breakwater budgets each LLM call before it leaves your app, watches circuit breakers across your
            fleet and pages you when a provider goes down. It never sees a prompt.
          </p>
        </div>
        <div className="relative rounded-xl border border-white/10 bg-white/5 p-4 backdrop-blur">
          <div className="mb-3 flex items-center justify-between text-[11px] font-medium tracking-wide text-zinc-400 uppercase">
            <span>checkout-api · providers</span>
            <span>live</span>
          </div>
          <ul className="space-y-2">
            {STATUS.map((s) => (
              <li
                key={s.provider}
                className="flex items-center justify-between rounded-md bg-white/5 px-3 py-2"
              >
                <span className="font-mono text-[12px] text-zinc-200">{s.provider}</span>
                <span className="flex items-center gap-2 text-[12px] text-zinc-300">
                  <span className={`size-1.5 rounded-full ${s.tone}`} />
                  {s.state}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </aside>
    </div>
  );
}
