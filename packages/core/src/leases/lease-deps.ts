import type { BudgetDeps } from "../budgets/budget-deps";
import type { CatalogueSource } from "../budgets/budget-pricing";
import type { PriceCatalogue } from "../pricing/price-catalogue";
import { PriceCatalogueHolder } from "../pricing/price-catalogue-holder";

/** What the lease use cases need: the budget engine's deps and the live price catalogue. */
export interface LeaseDeps extends BudgetDeps {
  catalogue: CatalogueSource;
}

export function currentCatalogue(source: CatalogueSource): PriceCatalogue {
  return source instanceof PriceCatalogueHolder ? source.current : source;
}

/** How a lease request ended when it carries no answer body. */
export type LeaseRefusal = "not_found" | "generation_conflict" | "holder_cap_exceeded";

/**
 * The outcome of a grant or renewal: the exact answer body (JSON text, stored byte for byte so a
 * replay repeats it), or a refusal the wire maps to its 404/409 envelope.
 */
export type LeaseAnswer = { ok: true; body: string } | { ok: false; refusal: LeaseRefusal };
