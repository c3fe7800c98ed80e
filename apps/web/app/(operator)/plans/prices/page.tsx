import type { Metadata } from "next";
import { ButtonLink } from "@/components/ui/button";
import { PlusIcon } from "@/components/ui/icons";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { PriceCatalogue } from "@/features/operator/price-catalogue";
import { PricesPage } from "@/features/operator/prices-page";
import { getViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Prices" };

/** Operator console: the model price catalogue. */
export default async function PricesCardsPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Prices" />;
  await prefetch(
    trpc.operator.listPriceCards.infiniteQueryOptions(
      { search: "", limit: 50 },
      {
        getNextPageParam: (last) => last.nextCursor ?? undefined,
      },
    ),
  );
  return (
    <PricesPage
      title="Prices"
      description="The model price catalogue every budget check, reservation and price hint uses. An edit reaches every replica within a second."
      actions={
        <ButtonLink href="/plans/prices/new">
          <PlusIcon size={14} /> Add card
        </ButtonLink>
      }
    >
      <HydrateClient>
        <PriceCatalogue />
      </HydrateClient>
    </PricesPage>
  );
}
