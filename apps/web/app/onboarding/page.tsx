import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Logo } from "@/components/ui/logo";
import { CreateOrganizationForm } from "@/features/organizations/create-organization-form";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Create your organization" };

const STEPS = [
  { n: 1, title: "Create your organization", text: "It owns projects, keys and the plan." },
  { n: 2, title: "Add a project", text: "Name it, choose a mode and period limits." },
  { n: 3, title: "Point an SDK at it", text: "Two environment variables, no code change." },
];

/** First stop after sign-up (no organization yet), and where "New organization" leads. */
export default async function OnboardingPage({ searchParams }: { searchParams: Promise<{ new?: string }> }) {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in?next=/onboarding");
  const another = (await searchParams).new === "1";
  if (viewer.organization && !another) redirect("/projects");

  return (
    <div className="min-h-dvh bg-zinc-50">
      <header className="flex h-14 items-center justify-between border-b border-zinc-200 bg-white px-6">
        <Logo />
        <div className="flex items-center gap-4 text-[13px] text-zinc-500">
          {viewer.user.isOperator ? (
            <Link href="/plans" className="font-medium text-zinc-700 hover:text-zinc-900">
              Operator console
            </Link>
          ) : null}
          <span>{viewer.user.email}</span>
          <Link href="/sign-out" className="font-medium text-zinc-700 hover:text-zinc-900">
            Sign out
          </Link>
        </div>
      </header>
      <main className="mx-auto grid max-w-4xl gap-10 px-6 py-16 md:grid-cols-[1fr_320px]">
        <section className="rounded-xl border border-zinc-200 bg-white p-8 shadow-xs">
          <p className="text-xs font-medium tracking-wide text-brand-600 uppercase">
            {another ? "New organization" : `Welcome, ${viewer.user.name.split(" ")[0]}`}
          </p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">
            {another ? "Create another organization" : "Create your organization"}
          </h1>
          <p className="mt-2 mb-8 text-[13px] leading-relaxed text-zinc-500">
            Everything in Breakwater lives in an organization: projects, their API keys, budgets and webhooks.
            It starts on the Free plan; nothing is shared with other organizations.
          </p>
          <CreateOrganizationForm cancelHref={another && viewer.organization ? "/projects" : undefined} />
        </section>
        <ol className="space-y-5 pt-2">
          {STEPS.map((s) => (
            <li key={s.n} className="flex gap-3">
              <span
                className={`flex size-6 shrink-0 items-center justify-center rounded-full text-[12px] font-semibold ${
                  s.n === 1 ? "bg-zinc-900 text-white" : "border border-zinc-300 text-zinc-500"
                }`}
              >
                {s.n}
              </span>
              <div>
                <p className="text-[13px] font-medium text-zinc-900">{s.title}</p>
                <p className="text-[13px] text-zinc-500">{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </main>
    </div>
  );
}
