/**
 * The skill runtime for service tests: the real extension host (the built-ins plus any test
 * plugins) over an in-memory database, the real Skills runtime over a temp data folder, the
 * host's real network adapter, the host's real llm adapter over the real Models (no model unless
 * the settings name one), and an approval gate that records what it was asked.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { builtins } from "../../host/builtins.ts"
import { llmAdapterFactory } from "../../extensions/models/adapter.ts"
import { networkAdapterFactory } from "../../extensions/network/adapter.ts"
import { databaseLayer } from "../../kernel/database.ts"
import type { CapabilityAdapterFactories, PluginModule } from "../../kernel/extensions/context.ts"
import { reservedNamespaces } from "../../extensions/plugins/contract/reserved-namespaces.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { contributionsLayer } from "../../kernel/extensions/registry.ts"
import { pluginMigrations } from "../../kernel/extensions/migrations.ts"
import { pluginFilesAdapterFactory } from "../../kernel/extensions/plugin-files.ts"
import type { CapabilityKind } from "../../kernel/contract/capabilities.ts"
import {
  SkillApprovals,
  Skills,
  type ApprovalRequest,
  type SkillCall,
  type SkillOutcome
} from "../../kernel/extensions/skills.ts"
import type { SkillDef } from "../../kernel/contract/skills.ts"
import { WebSettings } from "../../extensions/network/contract/web-settings.ts"
import { nodeSettingsLayer, type NodeSettings } from "../../host/settings.ts"
import { Settings } from "../../kernel/settings.ts"
import { modelMigrations } from "../../extensions/models/migrations.ts"
import { ModelsTest } from "../../extensions/models/test-layer.ts"
import { noModelSettings } from "./models.ts"

/**
 * An outcome read flat, as tests read it: `output` when it succeeded, `error` (and maybe
 * `approval`) when it did not.
 */
export type FlatOutcome = SkillOutcome & { readonly output?: unknown; readonly error?: string }

export interface SkillHarness {
  readonly dataDir: string
  readonly pluginDir: string
  /** Every approval the gate was asked for, in order. */
  readonly asked: Array<ApprovalRequest>
  /** Invokes as being `ada` outside a project, approved unless told otherwise. */
  readonly invoke: (
    name: string,
    input: unknown,
    call?: Partial<Omit<SkillCall, "name" | "input">>
  ) => Promise<FlatOutcome>
  readonly list: () => Promise<ReadonlyArray<SkillDef>>
  readonly install: (dir: string, granted: ReadonlyArray<CapabilityKind>) => Promise<unknown>
  /** Runs an Effect against the harness's services (the model ledger, say). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, HarnessServices>) => Promise<A>
  readonly close: () => Promise<void>
}

export interface SkillHarnessOptions {
  readonly settings?: Partial<NodeSettings>
  readonly plugins?: ReadonlyArray<PluginModule>
  /** False: the host implements no `network` adapter, as on a node where it is not wired. */
  readonly network?: boolean
  /** False: no `llm` adapter either. */
  readonly llm?: boolean
  /** Adapter factories beside (or instead of) the host's network and llm ones. */
  readonly adapters?: CapabilityAdapterFactories
}

const harnessLayer = (
  options: SkillHarnessOptions,
  dataDir: string,
  pluginDir: string,
  asked: Array<ApprovalRequest>
) => {
  const approvals = Layer.succeed(SkillApprovals, {
    ask: (request) =>
      Effect.sync(() => {
        asked.push(request)
        return { signalId: `signal-${asked.length}`, delivered: true }
      })
  })
  const extensions = Layer.unwrapEffect(
    Effect.gen(function* () {
      const llm = options.llm === false ? {} : { llm: yield* llmAdapterFactory }
      const network = options.network === false ? {} : { network: networkAdapterFactory(yield* WebSettings) }
      return ExtensionHost.layer({
        hostVersion: "0.1.0",
        builtins: [...builtins, ...(options.plugins ?? [])],
        reservedNamespaces,
        adapters: {
          ...network,
          ...llm,
          filesystem: pluginFilesAdapterFactory(yield* Settings, new Set(builtins.map((module) => module.manifest.id))),
          ...options.adapters
        }
      })
    })
  )
  // No model unless the settings bind one; spend alerts are kept, not raised anywhere.
  const models = ModelsTest(null, { ...noModelSettings, ...options.settings })
  return Skills.layer.pipe(
    Layer.provide(approvals),
    Layer.provideMerge(extensions),
    Layer.provideMerge(contributionsLayer),
    Layer.provideMerge(models),
    Layer.provideMerge(databaseLayer({ ...pluginMigrations, ...modelMigrations }, { filename: ":memory:" })),
    // The harness's files sit in its data folder itself (FILES_DIR = DATA_DIR), where the skill tests read them.
    Layer.provideMerge(
      nodeSettingsLayer({ dataDir, filesDir: Option.some(dataDir), pluginDir, ...noModelSettings, ...options.settings })
    )
  )
}

/** What a harness runs an Effect against: the skill runtime and everything beneath it. */
export type HarnessServices = Layer.Layer.Success<ReturnType<typeof harnessLayer>>

export const startSkills = async (options: SkillHarnessOptions = {}): Promise<SkillHarness> => {
  const dataDir = mkdtempSync(join(tmpdir(), "skills-"))
  const pluginDir = join(dataDir, "plugins")
  mkdirSync(pluginDir)
  const asked: Array<ApprovalRequest> = []
  const runtime = ManagedRuntime.make(harnessLayer(options, dataDir, pluginDir, asked))
  await runtime.runPromise(Effect.void)
  return {
    dataDir,
    pluginDir,
    asked,
    invoke: (name, input, call = {}) =>
      runtime
        .runPromise(
          Effect.either(
            Effect.flatMap(Skills, (skills) => skills.invoke({ beingId: "ada", approved: true, ...call, name, input }))
          )
        )
        .then((outcome) => (Either.isRight(outcome) ? outcome.right : Promise.reject(outcome.left))),
    list: () => runtime.runPromise(Effect.flatMap(Skills, (skills) => skills.list)),
    install: (dir, granted) =>
      runtime.runPromise(Effect.flatMap(ExtensionHost, (host) => host.install({ dir, granted }))),
    run: (effect) => runtime.runPromise(effect),
    close: async () => {
      await runtime.dispose()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
