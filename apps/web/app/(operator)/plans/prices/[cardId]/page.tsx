import type { Metadata } from "next";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { EditPriceCard } from "@/features/operator/price-card-editor";
import { PricesPage } from "@/features/operator/prices-page";
import { getViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Price card" };

/** One price card, editable. */
export default async function PriceCardPage({ params }: { params: Promise<{ cardId: string }> }) {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Prices" />;
  const { cardId } = await params;
  await prefetch(trpc.operator.getPriceCard.queryOptions({ id: cardId }));
  return (
    <PricesPage
      title="Edit price card"
      description="Saving re-prices the next budget check's hints on every replica."
    >
      <HydrateClient>
        <EditPriceCard id={cardId} />
      </HydrateClient>
    </PricesPage>
  );
}
