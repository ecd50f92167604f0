/**
 * The studio's extensions bound to what the host gives them: agents check their skills against
 * the node's skill registry, and the generator catalogue (seeded at boot) checks its steps against
 * the extension host. An extension may not import the host, so the binding lives here.
 */
import * as Layer from "effect/Layer"
import { Agents } from "../agents/agents.ts"
import { GeneratorsLive } from "../generators/seed.ts"
import { SkillsLive } from "../skills/live.ts"

export const StudioAgentsLive = Agents.Default.pipe(Layer.provide(SkillsLive))

// The generator catalogue checks its steps against the node's `ExtensionHost` (host/node.ts provides it).
export const StudioGeneratorsLive = GeneratorsLive
