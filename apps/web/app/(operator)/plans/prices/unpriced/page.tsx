import type { Metadata } from "next";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { PricesPage } from "@/features/operator/prices-page";
import { UnpricedModels } from "@/features/operator/unpriced-models";
import { getViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Unpriced models" };

/** Models seen in traffic without a price, and the re-pricing of their past events. */
export default async function UnpricedModelsPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Prices" />;
  await prefetch(
    trpc.operator.listUnpricedModels.queryOptions({ search: "" }),
    trpc.operator.listRepriceRuns.queryOptions(),
  );
  return (
    <PricesPage
      title="Unpriced models"
      description="Models the SDKs called that no card prices. Price one and its past events are re-priced."
    >
      <HydrateClient>
        <UnpricedModels />
      </HydrateClient>
    </PricesPage>
  );
}
