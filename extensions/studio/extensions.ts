/**
 * The studio's extensions bound to what the host gives them: agents check their skills against
 * the node's skill registry, and the generator catalogue (seeded at boot) checks its steps against
 * the extension host. An extension may not import the host, so the binding lives here.
 */
import * as Layer from "effect/Layer"
import { Agents } from "../agents/agents.ts"
import { GeneratorsLive } from "../generators/seed.ts"
import { ExtensionsLive } from "../plugins/extensions.ts"
import { SkillsLive } from "../skills/live.ts"

export const StudioAgentsLive = Agents.Default.pipe(Layer.provide(SkillsLive))

export const StudioGeneratorsLive = GeneratorsLive.pipe(Layer.provide(ExtensionsLive))
