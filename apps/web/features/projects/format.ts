const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 2 });
const date = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

export const formatUsd = (n: number) => usd.format(n);
export const formatDate = (iso: string) => date.format(new Date(iso));

export const MODE_LABEL = { alert_only: "Alert only", hard_deny: "Hard deny" } as const;
export const MODE_HELP = {
  alert_only: "Calls always go through; crossing a limit raises alerts.",
  hard_deny: "Calls that would exceed a limit are refused before they reach the provider.",
} as const;
