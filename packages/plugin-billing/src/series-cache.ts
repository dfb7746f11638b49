/** The dimensions that identify a series within a source (a row's, or a stored series'). */
export interface SeriesDimensions {
  readonly resourceId: string;
  readonly provider: string;
  readonly accountId: string;
  readonly service: string;
  readonly region: string;
  readonly tagGroup: string;
}

interface Entry extends SeriesDimensions {
  readonly id: number;
}

/** Series ids by source and dimensions, so a pull stores only the series a page introduces. */
export interface SeriesCache {
  /** The id of the series, or undefined when not cached. */
  get(source: string, dimensions: SeriesDimensions): number | undefined;
  /** Remembers the id of a series. */
  set(source: string, dimensions: SeriesDimensions, id: number): void;
  /** Copies every entry of `other` into this cache (e.g. once a transaction committed). */
  merge(other: SeriesCache): void;
  /** Number of series cached. */
  readonly size: number;
  /** Calls `visit` for every entry. */
  forEach(visit: (source: string, dimensions: SeriesDimensions, id: number) => void): void;
}

/**
 * Creates a series cache. Entries are found by source and resource id, then compared field by
 * field, so a lookup (once per pulled row) builds no key string. Past `maxSize` series the cache
 * starts over; series are never deleted from the store, so an entry cannot go stale otherwise.
 */
export function createSeriesCache(maxSize = 500_000): SeriesCache {
  let bySource = new Map<string, Map<string, Entry[]>>();
  let size = 0;
  const cache: SeriesCache = {
    get size() {
      return size;
    },
    get(source, d) {
      const entries = bySource.get(source)?.get(d.resourceId);
      if (entries === undefined) return undefined;
      for (const e of entries) {
        if (
          e.provider === d.provider &&
          e.accountId === d.accountId &&
          e.service === d.service &&
          e.region === d.region &&
          e.tagGroup === d.tagGroup
        ) {
          return e.id;
        }
      }
      return undefined;
    },
    set(source, d, id) {
      if (cache.get(source, d) !== undefined) return;
      if (size >= maxSize) {
        bySource = new Map();
        size = 0;
      }
      let byResource = bySource.get(source);
      if (byResource === undefined) {
        byResource = new Map();
        bySource.set(source, byResource);
      }
      const entry: Entry = {
        resourceId: d.resourceId,
        provider: d.provider,
        accountId: d.accountId,
        service: d.service,
        region: d.region,
        tagGroup: d.tagGroup,
        id,
      };
      const entries = byResource.get(d.resourceId);
      if (entries === undefined) byResource.set(d.resourceId, [entry]);
      else entries.push(entry);
      size += 1;
    },
    merge(other) {
      other.forEach((source, d, id) => {
        cache.set(source, d, id);
      });
    },
    forEach(visit) {
      for (const [source, byResource] of bySource) {
        for (const entries of byResource.values()) {
          for (const e of entries) visit(source, e, e.id);
        }
      }
    },
  };
  return cache;
}
