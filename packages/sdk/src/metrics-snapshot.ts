import type { MessageInitShape } from "@bufbuild/protobuf";
import type { MetricSchema } from "@costplugin/proto";
import { MetricType } from "@costplugin/proto";
import type { MetricObjectWithValues, MetricValue, Registry } from "prom-client";

type MetricInit = MessageInitShape<typeof MetricSchema>;
type FamilyValues = MetricObjectWithValues<MetricValue<string> & { metricName?: string }>;

const metricTypes: Readonly<Record<string, MetricType>> = {
  counter: MetricType.COUNTER,
  gauge: MetricType.GAUGE,
  histogram: MetricType.HISTOGRAM,
  summary: MetricType.SUMMARY,
};

/**
 * Reads metric families from `registry` as `costplugin.v1.Metric` inits, in the registry's order.
 * `names` filters by family name (empty: all); unknown names are simply absent.
 *
 * Counter and gauge samples carry their labels. Histogram and summary samples follow the
 * Prometheus exposition: each also carries `__name__` (`<family>_bucket`, `_sum` or `_count`),
 * buckets an `le` label (`+Inf` for the last) and summary quantiles a `quantile` label.
 */
export async function metricsFromRegistry(
  registry: Registry,
  names: readonly string[],
): Promise<MetricInit[]> {
  const families: FamilyValues[] =
    names.length === 0 ? await registry.getMetricsAsJSON() : await familiesByName(registry, names);
  return families.map(metricFromFamily);
}

async function familiesByName(registry: Registry, names: readonly string[]) {
  const wanted = new Set(names);
  const families: FamilyValues[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    const name = (metric as unknown as { name: string }).name;
    if (!wanted.has(name)) continue;
    const single = registry.getSingleMetric(name);
    if (single !== undefined) families.push((await single.get()) as FamilyValues);
  }
  return families;
}

function metricFromFamily(family: FamilyValues): MetricInit {
  const type = metricTypes[String(family.type)] ?? MetricType.UNSPECIFIED;
  const expanded = type === MetricType.HISTOGRAM || type === MetricType.SUMMARY;
  return {
    name: family.name,
    help: family.help,
    type,
    samples: family.values.map((sample) => ({
      labels: {
        ...stringLabels(sample.labels),
        ...(expanded ? { __name__: sample.metricName ?? family.name } : {}),
      },
      value: sample.value,
    })),
  };
}

function stringLabels(labels: Partial<Record<string, string | number>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) {
    if (value !== undefined) out[key] = String(value);
  }
  return out;
}
