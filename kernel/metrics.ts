/**
 * The node's metrics in Prometheus' model, kept by prom-client. Each node has a registry of its own (tests run several
 * nodes in one process); a feature declares its counters and histograms on it when its layer is built and records on
 * its hot path (a label lookup, no I/O). A figure that lives elsewhere (a table's count, the open sockets) is a gauge
 * that an Effect brings up to date just before each scrape. The process's own figures (event-loop lag, heap, resident
 * memory, garbage collection) are prom-client's default metrics, collected once per process from the first scrape on:
 * their event-loop monitor wakes every 10 ms, a cost a node nobody scrapes does not pay.
 *
 * prom-client's parts are required one by one: its index loads the cluster aggregator and the push gateway too, about
 * 50 ms of every start for what the node never uses.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createRequire } from "node:module"
import type * as PromClient from "prom-client"

const load = createRequire(import.meta.url)
const Registry = load("prom-client/lib/registry") as typeof PromClient.Registry
const Counter = load("prom-client/lib/counter") as typeof PromClient.Counter
const Histogram = load("prom-client/lib/histogram") as typeof PromClient.Histogram
const Gauge = load("prom-client/lib/gauge") as typeof PromClient.Gauge

interface Declared {
  readonly name: string
  readonly help: string
}

export interface NodeMetricsShape {
  /** The counter of that name, made on first ask: a layer built twice over one registry shares it. */
  readonly counter: <L extends string>(
    declared: Declared & { readonly labelNames: ReadonlyArray<L> }
  ) => PromClient.Counter<L>
  readonly histogram: <L extends string>(
    declared: Declared & { readonly labelNames: ReadonlyArray<L>; readonly buckets: ReadonlyArray<number> }
  ) => PromClient.Histogram<L>
  /** A gauge set by `refresh` before each scrape; declared again under the same name, the newest refresh wins. */
  readonly gauge: <L extends string>(
    declared: Declared & { readonly labelNames: ReadonlyArray<L> },
    refresh: (gauge: PromClient.Gauge<L>) => Effect.Effect<void>
  ) => void
  /** The text exposition format (version 0.0.4) of every figure, the process's included. */
  readonly scrape: Effect.Effect<string>
}

/** The content type of what `scrape` answers. */
export const metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

/** The process's default metrics, started by the first scrape of any node in it. */
let processRegistry: PromClient.Registry | null = null
const processMetrics = (): PromClient.Registry => {
  if (processRegistry === null) {
    processRegistry = new Registry()
    const collectDefaultMetrics = load("prom-client/lib/defaultMetrics") as typeof PromClient.collectDefaultMetrics
    collectDefaultMetrics({ register: processRegistry })
    // Gauges whose names end in `_total`, which promtool's lint refuses (the suffix is a counter's); what they count
    // (libuv handles, requests and resources) says little that the event-loop lag does not.
    for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
      processRegistry.removeSingleMetric(name)
  }
  return processRegistry
}

export const makeNodeMetrics = (): NodeMetricsShape => {
  const registry = new Registry()
  const refreshes = new Map<string, Effect.Effect<void>>()
  const existing = <M>(name: string) => registry.getSingleMetric(name) as M | undefined

  const counter = <L extends string>(declared: Declared & { readonly labelNames: ReadonlyArray<L> }) =>
    existing<PromClient.Counter<L>>(declared.name) ??
    new Counter<L>({ ...declared, labelNames: [...declared.labelNames], registers: [registry] })

  const histogram = <L extends string>(
    declared: Declared & { readonly labelNames: ReadonlyArray<L>; readonly buckets: ReadonlyArray<number> }
  ) =>
    existing<PromClient.Histogram<L>>(declared.name) ??
    new Histogram<L>({
      ...declared,
      labelNames: [...declared.labelNames],
      buckets: [...declared.buckets],
      registers: [registry]
    })

  const gauge = <L extends string>(
    declared: Declared & { readonly labelNames: ReadonlyArray<L> },
    refresh: (gauge: PromClient.Gauge<L>) => Effect.Effect<void>
  ) => {
    const made =
      existing<PromClient.Gauge<L>>(declared.name) ??
      new Gauge<L>({ ...declared, labelNames: [...declared.labelNames], registers: [registry] })
    refreshes.set(declared.name, refresh(made))
  }

  const scrape = Effect.gen(function* () {
    yield* Effect.all([...refreshes.values()], { discard: true, concurrency: "unbounded" })
    const processWide = processMetrics()
    const [own, ofProcess] = yield* Effect.promise(() => Promise.all([registry.metrics(), processWide.metrics()]))
    return `${ofProcess}\n${own}`
  })

  return { counter, histogram, gauge, scrape }
}

/**
 * The node's metrics. A reference with a default so a feature built alone in a test records somewhere; the node
 * provides a registry of its own (host/process.ts).
 */
export class NodeMetrics extends Context.Reference<NodeMetrics>()("kernel/NodeMetrics", {
  defaultValue: makeNodeMetrics
}) {}

/** A registry of the node's own, under every feature (host/process.ts). */
export const nodeMetricsLayer = Layer.sync(NodeMetrics, makeNodeMetrics)
