import { publishOn, type RedisClient, type RedisPubSub } from "@breakwater/queue";
import type { Logger } from "pino";
import type { PriceCatalogue } from "./price-catalogue";

/** Redis pub/sub channel announcing that the stored price catalogue changed. */
export const PRICE_CATALOGUE_CHANNEL = "bw:price-catalogue";

/**
 * Holds the live catalogue of a process. The hot path reads `current` synchronously (no I/O);
 * `refresh()` loads a new catalogue and swaps it in atomically. A refresh requested while one is
 * loading schedules exactly one more load, so an edit committed mid-load is never missed.
 */
export class PriceCatalogueHolder {
  private catalogue: PriceCatalogue;
  private inflight: Promise<PriceCatalogue> | null = null;
  private again = false;

  constructor(
    private readonly load: () => Promise<PriceCatalogue>,
    initial: PriceCatalogue,
  ) {
    this.catalogue = initial;
  }

  /** A holder primed with a first load (rejects when that load fails). */
  static async create(load: () => Promise<PriceCatalogue>): Promise<PriceCatalogueHolder> {
    return new PriceCatalogueHolder(load, await load());
  }

  get current(): PriceCatalogue {
    return this.catalogue;
  }

  /** Reloads and swaps in the new catalogue; concurrent calls share loads. On failure the old one stays. */
  refresh(): Promise<PriceCatalogue> {
    if (this.inflight) {
      this.again = true;
      return this.inflight;
    }
    const run = async (): Promise<PriceCatalogue> => {
      try {
        do {
          this.again = false;
          this.catalogue = await this.load();
        } while (this.again);
        return this.catalogue;
      } finally {
        this.inflight = null;
      }
    };
    this.inflight = run();
    return this.inflight;
  }
}

/** Tells every replica that the stored catalogue changed (call after committing an edit). */
export async function publishPriceCatalogueChange(
  publisher: RedisClient,
  channel = PRICE_CATALOGUE_CHANNEL,
): Promise<void> {
  await publishOn(publisher, channel, String(Date.now()));
}

/**
 * Re-prices on every announced edit: subscribes through `pubsub` and refreshes the holder on each
 * message, and after every re-subscription — messages published while the subscription was down
 * are lost, so a gap is treated as "something may have changed". Resolves once subscribed; the
 * returned function unsubscribes.
 */
export async function subscribeToPriceCatalogueChanges(
  pubsub: RedisPubSub,
  holder: PriceCatalogueHolder,
  opts: { channel?: string; log?: Logger } = {},
): Promise<() => Promise<void>> {
  const channel = opts.channel ?? PRICE_CATALOGUE_CHANNEL;
  const reload = (why: string) => {
    holder
      .refresh()
      .catch((err: unknown) =>
        opts.log?.error({ err, why }, "price catalogue reload failed; keeping the previous one"),
      );
  };
  const off = await pubsub.subscribe(
    channel,
    () => reload("edit announced"),
    () => reload("pub/sub re-subscribed"),
  );
  return async () => {
    await off().catch(() => undefined);
  };
}
