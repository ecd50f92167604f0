/**
 * What voice needs from the models feature, as a port the host binds from the models' settings
 * (extensions/twin/voice-binding.ts): where the `transcribe` tier sends audio, read without calling a
 * model, so the status can say where a recording would go before one is made.
 */
import * as Context from "effect/Context"

/** One server a recording may reach. */
export interface SttRoute {
  readonly model: string
  readonly baseUrl: string
  /** A server on this host (its audio does not leave the device). */
  readonly local: boolean
  /** USD a minute of audio costs there (0 on a local server). */
  readonly usdPerMinute: number
  /** The price came from the seeded table or `LLM_PRICES`; false: unknown, recorded at $0. */
  readonly priced: boolean
}

export interface SttBindingShape {
  /** The transcribe tier's own server. */
  readonly route: SttRoute
  /** The remote default a failed local call retries on (`LOCAL_LLM_FALLBACK`), or null. */
  readonly fallback: SttRoute | null
  /** A call can be made: a local server, or a remote provider with a key. */
  readonly available: boolean
  /** Why not, naming the settings to change, when it cannot. */
  readonly reason: string | null
}

export class SttBinding extends Context.Tag("twin/SttBinding")<SttBinding, SttBindingShape>() {}
