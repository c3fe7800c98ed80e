import { ButtonLink } from "@/components/ui/button";
import { LogoMark } from "@/components/ui/logo";

export default function NotFound() {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center px-6 text-center">
      <LogoMark />
      <p className="mt-6 font-mono text-xs text-zinc-400">404</p>
      <h1 className="mt-1 text-xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mt-2 max-w-sm text-[13px] text-zinc-500">
        Nothing lives at this address, or it belongs to an organization you are not a member of.
      </p>
      <ButtonLink href="/" variant="secondary" className="mt-6">
        Go to the dashboard
      </ButtonLink>
    </div>
  );
}
