import type { Metadata } from "next";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { PriceHintExplainer } from "@/features/operator/price-hint-explainer";
import { PricesPage } from "@/features/operator/prices-page";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Why this hint" };

/** "Why this hint": a chain and an estimate → each entry's card and rates, and the hints the SDK receives. */
export default async function ExplainHintsPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Prices" />;
  return (
    <PricesPage
      title="Why this hint"
      description="The price_hints a budget check answers for a failover chain, and which card, alias or pattern, bracket and rates produced each number."
    >
      <PriceHintExplainer />
    </PricesPage>
  );
}
