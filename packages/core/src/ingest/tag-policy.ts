import type { Pool } from "pg";

/** Account-wide tag cardinality (spec §3): distinct keys per organization, values per key. */
export const TAG_KEYS_PER_ORG = 100;
export const TAG_VALUES_PER_KEY = 1000;

const pairKey = (k: string, v: string) => `${k}\u0000${v}`;

/**
 * Remembers which (key, value) pairs each organization already has, so the common case — events
 * reusing known tags — costs no query. Bounded: the oldest organizations are forgotten first.
 */
export class KnownTagValues {
  private readonly orgs = new Map<string, Set<string>>();
  constructor(
    private readonly maxPairsPerOrg = 20_000,
    private readonly maxOrgs = 5_000,
  ) {}

  has(orgId: string, key: string, value: string): boolean {
    return this.orgs.get(orgId)?.has(pairKey(key, value)) ?? false;
  }

  add(orgId: string, key: string, value: string): void {
    let set = this.orgs.get(orgId);
    if (!set) {
      if (this.orgs.size >= this.maxOrgs) {
        const oldest = this.orgs.keys().next().value;
        if (oldest !== undefined) this.orgs.delete(oldest);
      }
      set = new Set();
      this.orgs.set(orgId, set);
    }
    if (set.size >= this.maxPairsPerOrg) set.clear();
    set.add(pairKey(key, value));
  }
}

/**
 * Admits the tag sets of a batch under the account-wide cardinality policy. `tagSets[i]` is the
 * tags of candidate i (null = none). Returns, per candidate, whether its tags fit; new pairs of
 * fitting candidates are registered durably (TagValue rows) before this returns. Candidates are
 * admitted in order, so within a batch the earlier event wins the last free slot.
 */
export async function admitTagSets(
  deps: { pg: Pool; known: KnownTagValues },
  organizationId: string,
  tagSets: (Record<string, string> | null)[],
): Promise<boolean[]> {
  const result = tagSets.map(() => true);
  const unknown = new Map<string, { key: string; value: string }>();
  for (const tags of tagSets) {
    if (!tags) continue;
    for (const key of Object.keys(tags)) {
      const value = tags[key]!;
      if (!deps.known.has(organizationId, key, value)) unknown.set(pairKey(key, value), { key, value });
    }
  }
  if (unknown.size === 0) return result;

  const client = await deps.pg.connect();
  try {
    await client.query("BEGIN");
    // New tag values are rare: serialise them per organization so two batches cannot both take
    // the last free slot.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`tags:${organizationId}`]);
    const pairs = [...unknown.values()];
    const existing = await client.query<{ key: string; value: string }>(
      `SELECT t.key, t.value FROM tag_values t
         JOIN unnest($2::text[], $3::text[]) AS p(key, value) ON p.key = t.key AND p.value = t.value
        WHERE t.organization_id = $1`,
      [organizationId, pairs.map((p) => p.key), pairs.map((p) => p.value)],
    );
    const present = new Set(existing.rows.map((r) => pairKey(r.key, r.value)));
    for (const r of existing.rows) deps.known.add(organizationId, r.key, r.value);

    const missingKeys = [
      ...new Set(pairs.filter((p) => !present.has(pairKey(p.key, p.value))).map((p) => p.key)),
    ];
    if (missingKeys.length === 0) {
      await client.query("COMMIT");
      return result;
    }
    const counts = await client.query<{ keys: string; key: string | null; n: string | null }>(
      `SELECT (SELECT count(DISTINCT key) FROM tag_values WHERE organization_id = $1)::text AS keys,
              c.key, c.n::text AS n
         FROM (SELECT key, count(*) AS n FROM tag_values
                WHERE organization_id = $1 AND key = ANY($2::text[]) GROUP BY key) c
        RIGHT JOIN (SELECT 1) one ON true`,
      [organizationId, missingKeys],
    );
    let keyCount = Number(counts.rows[0]?.keys ?? 0);
    const valuesPerKey = new Map<string, number>();
    for (const r of counts.rows) if (r.key !== null) valuesPerKey.set(r.key, Number(r.n));

    const added = new Set<string>();
    const newRows: { key: string; value: string }[] = [];
    tagSets.forEach((tags, i) => {
      if (!tags) return;
      const fresh = Object.keys(tags)
        .map((key) => ({ key, value: tags[key]! }))
        .filter((p) => {
          const pk = pairKey(p.key, p.value);
          return unknown.has(pk) && !present.has(pk) && !added.has(pk);
        });
      if (fresh.length === 0) return;
      const newKeys = new Set(fresh.filter((p) => !valuesPerKey.has(p.key)).map((p) => p.key));
      if (keyCount + newKeys.size > TAG_KEYS_PER_ORG) {
        result[i] = false;
        return;
      }
      const perKey = new Map<string, number>();
      for (const p of fresh) perKey.set(p.key, (perKey.get(p.key) ?? 0) + 1);
      for (const [key, n] of perKey) {
        if ((valuesPerKey.get(key) ?? 0) + n > TAG_VALUES_PER_KEY) {
          result[i] = false;
          return;
        }
      }
      keyCount += newKeys.size;
      for (const [key, n] of perKey) valuesPerKey.set(key, (valuesPerKey.get(key) ?? 0) + n);
      for (const p of fresh) {
        added.add(pairKey(p.key, p.value));
        newRows.push(p);
      }
    });
    if (newRows.length > 0) {
      await client.query(
        `INSERT INTO tag_values (organization_id, key, value)
         SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS p(k, v)
         ON CONFLICT DO NOTHING`,
        [organizationId, newRows.map((r) => r.key), newRows.map((r) => r.value)],
      );
    }
    await client.query("COMMIT");
    for (const r of newRows) deps.known.add(organizationId, r.key, r.value);
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
