import type { Metadata } from "next";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { blankCard } from "@/features/operator/price-card-defaults";
import { PriceCardEditor } from "@/features/operator/price-card-editor";
import { PricesPage } from "@/features/operator/prices-page";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "New price card" };

/** A new card; `?provider=&model=&reprice=1` comes from an unpriced model ("Price it"). */
export default async function NewPriceCardPage({
  searchParams,
}: {
  searchParams: Promise<{ provider?: string; model?: string; reprice?: string }>;
}) {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Prices" />;
  const q = await searchParams;
  const reprice =
    q.reprice === "1" && q.provider && q.model ? { provider: q.provider, model: q.model } : null;
  return (
    <PricesPage
      title="Add a price card"
      description="Rates in USD per million tokens, with the page they come from."
    >
      <PriceCardEditor initial={blankCard(q.provider, q.model)} reprice={reprice} />
    </PricesPage>
  );
}
