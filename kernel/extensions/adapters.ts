/**
 * The adapters a plugin's context may hold, one per capability: what each capability lets plugin
 * code do. The host supplies their implementations (context.ts); a contribution gets those its
 * plugin was granted and it uses.
 *
 * Every operation is an Effect that needs nothing and fails only with a `CapabilityRefused` whose
 * message says plainly why (capability-refused.ts): the implementation closes over its services
 * when it is built, and a caller stops it by interrupting it. Built-ins `yield*` them; a
 * third-party plugin in an isolate gets each as a Promise, run at the isolate's one boundary
 * (isolate/plugin-isolate.ts).
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "./capability-refused.ts"
import type { LlmAdapter } from "./llm.ts"
import type { MemoryAdapter } from "./memory.ts"
import type { NetworkAdapter } from "./network.ts"
import type { FilesystemAdapter } from "./plugin-files.ts"
import type { ProcessAdapter } from "./process.ts"
import type { StorageAdapter } from "./storage-adapter.ts"
import type { CapabilityKind } from "../contract/capabilities.ts"

/** The operations of one capability, for a capability no feature has typed. */
export type Adapter = { readonly [operation: string]: unknown }

/** What a plugin may put on a signal; the limits are the first document's signal.raise. */
export interface SignalRaise {
  /** Default 'insight'. */
  readonly kind?: "decision" | "insight" | "reminder" | "alert" | "question" | "celebration"
  /** At most 160 characters. */
  readonly title: string
  /** At most 4000 characters. */
  readonly body?: string
  /** At most 6, with distinct ids. */
  readonly options?: ReadonlyArray<{ readonly id: string; readonly label: string; readonly hint?: string }>
  /** Default 'normal'. */
  readonly priority?: "low" | "normal" | "high" | "urgent"
  /** ISO 8601. */
  readonly dueAt?: string | null
  /** Opaque to the node unless its `kind` names an action the node runs when the signal is answered. */
  readonly action?: { readonly [key: string]: unknown } | null
}

/** The `signals` capability: signals land on the owner's desktop, the plugin named as their source. */
export interface SignalsAdapter {
  /** Succeeds once the signal is stored; refused saying what the node refused. */
  readonly raise: (
    input: SignalRaise
  ) => Effect.Effect<{ readonly signalId: string; readonly delivered: boolean }, CapabilityRefused>
}

/** What a plugin may schedule: a reminder on a desktop at a time (ISO 8601). */
export interface ScheduleReminder {
  /** At most 160 characters. */
  readonly title: string
  /** At most 4000 characters. */
  readonly body?: string
  readonly at: string
}

/** A skill to run later as the being the call works for, in the call's project (ISO 8601 `at`). */
export interface ScheduleSkillRun {
  /** `<namespace>.<id>` of a registered skill. */
  readonly skill: string
  /** Checked against the skill's input schema now, and again when it runs. */
  readonly input: { readonly [key: string]: unknown }
  readonly at: string
}

/**
 * The `schedule` capability: a reminder signal held until its time by the node's scheduler,
 * landing where the plugin's signals land (signals-adapter.ts); and, for the node's own plugins,
 * a skill run held the same way, run when it fires as the being of the call, never approved: a
 * world-acting skill then asks its owner as any unapproved call does.
 */
export interface ScheduleAdapter {
  /** Succeeds once the reminder is stored; refused saying what the node refused. */
  readonly remind: (
    reminder: ScheduleReminder
  ) => Effect.Effect<{ readonly signalId: string; readonly at: string }, CapabilityRefused>
  /** Succeeds once the run is held; refused saying what the node refused (always, for a third-party plugin). */
  readonly run: (
    run: ScheduleSkillRun
  ) => Effect.Effect<{ readonly runId: string; readonly at: string }, CapabilityRefused>
}

/** A plugin's own ledger account and what it may still spend of the calling being's wallet. */
export interface CreditStanding {
  /** `plugin:<plugin id>`. */
  readonly account: string
  /** What the plugin's account holds: every credit it was paid. */
  readonly balance: number
  /** What it may spend of one being's wallet in any 24 hours. */
  readonly limit: number
  readonly spentToday: number
  readonly remainingToday: number
}

/**
 * The `credits` capability, for the being of a call (absent outside one): the plugin's account read,
 * and a spend of the being's credits into it, within the grant's limit; every spend is a ledger movement.
 */
export interface CreditsAdapter {
  readonly balance: () => Effect.Effect<CreditStanding, CapabilityRefused>
  /** A whole number above 0; refused past the limit or the being's balance, saying which. */
  readonly spend: (amount: number) => Effect.Effect<CreditStanding, CapabilityRefused>
}

/**
 * Each capability's adapter, by kind. The generic ones are typed here; a feature that owns a
 * capability's meaning types its adapter by declaration merging, beside its implementation:
 *
 *     declare module "../../kernel/extensions/adapters.ts" {
 *       interface CapabilityAdapters { readonly integrations: IntegrationsAdapter }
 *     }
 *
 * A kind no one typed holds plain operations (`AdapterOf`).
 */
export interface CapabilityAdapters {
  readonly network: NetworkAdapter
  /** A third-party plugin's own data folder (plugin-files.ts); built-ins use the call's file root. */
  readonly filesystem: FilesystemAdapter
  readonly process: ProcessAdapter
  readonly llm: LlmAdapter
  readonly memory: MemoryAdapter
  /** The plugin's own keys for the being of a call (key-value-storage.ts); features may add operations. */
  readonly storage: StorageAdapter
  readonly signals: SignalsAdapter
  readonly schedule: ScheduleAdapter
  readonly credits: CreditsAdapter
  readonly "world-acting": Adapter
}

/** Every capability's adapter: as its feature typed it, else plain operations. */
type AdapterList = {
  readonly [K in CapabilityKind]: K extends keyof CapabilityAdapters ? CapabilityAdapters[K] : Adapter
}

/** The adapter of the capability `K`. */
export type AdapterOf<K extends CapabilityKind> = AdapterList[K]

export type GrantedAdapters = { readonly [K in CapabilityKind]?: AdapterOf<K> }
