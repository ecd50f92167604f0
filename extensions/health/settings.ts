/**
 * What the node's health and metrics read from the environment. docs/operations.md lists each with its default.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { optionalSecret, optionalString, settingsLayer } from "../../kernel/settings.ts"

export const healthSettingsConfig = Config.all({
  /** A bearer token a scraper (Prometheus) sends to read /api/metrics without the owner's session; unset: none. */
  metricsToken: optionalSecret("METRICS_TOKEN"),
  /**
   * The OTLP/HTTP collector spans are exported to (traces at `<endpoint>/v1/traces`, as OpenTelemetry's own
   * variable means it); unset, the node records no spans at all (tracing.ts).
   */
  otlpEndpoint: optionalString("OTEL_EXPORTER_OTLP_ENDPOINT").pipe(
    Config.validate({
      message: "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL",
      validation: (url) => Option.isNone(url) || /^https?:\/\/[^/]/i.test(url.value.trim())
    })
  ),
  /** The share of requests (and of other root spans) whose traces are exported, 0 to 1. */
  tracesSampleRatio: Config.number("OTEL_TRACES_SAMPLER_ARG").pipe(
    Config.withDefault(0.1),
    Config.validate({
      message: "OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1",
      validation: (ratio) => ratio >= 0 && ratio <= 1
    })
  ),
  /** The `service.name` the exported spans carry. */
  otelServiceName: Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("personal-os-node"))
})

export type HealthSettingsShape = Config.Config.Success<typeof healthSettingsConfig>

export class HealthSettings extends Context.Tag("health/HealthSettings")<HealthSettings, HealthSettingsShape>() {
  static readonly layer = (overrides?: Partial<HealthSettingsShape>) =>
    settingsLayer(HealthSettings, healthSettingsConfig, overrides)
}
