/**
 * An ephemeral agent of a project's team wears a soul generated from the project and the role,
 * compiled in agent mode, instead of its persona's plain words: the same project and role give
 * the same prompt, another project another soul, and no model is called (no Models is provided).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { describe, expect, it } from "vitest"
import { assembleTeam, type TeamMember } from "../../../actors/project/team-assembly.ts"
import { SavedAgents } from "../../../actors/project/ports.ts"
import { AgentSoulsLive } from "../../../actors/project/port-bindings.ts"
import { SoulService } from "../../../extensions/souls/contract/soul-service.ts"
import { agentPrompt } from "../../../extensions/souls/soul-service.ts"
import { agentRules, compilePrompt, hardRules } from "../../../extensions/souls/compile.ts"
import { generateSoul } from "../../../extensions/souls/generate.ts"
import { personaFor } from "../../../seeds/personas.ts"

const noSavedAgents = Layer.succeed(SavedAgents, {
  ownedBy: () => Effect.succeed([]),
  registeredSkills: Effect.succeed(new Set<string>())
})
// The souls' contract tag with only its pure part: the agent prompt needs no database.
const agentSouls = AgentSoulsLive.pipe(Layer.provide(Layer.mock(SoulService, { agentPrompt })))

const promptOf = (projectId: string, role: string): string => {
  const team = Effect.runSync(
    assembleTeam([{ role, skills: [] }], "being-owner", projectId).pipe(Effect.provide([noSavedAgents, agentSouls]))
  )
  const member: TeamMember = team[0]!
  if (member.source !== "persona") throw new Error(`a ${member.source} took the role, not a persona`)
  return member.agent.systemPrompt
}

describe("an ephemeral agent's soul", () => {
  it("is the same for the same project and role, another for another project or role", () => {
    const writer = promptOf("project-a", "writer")
    expect(promptOf("project-a", " Writer ")).toBe(writer)
    expect(promptOf("project-b", "writer")).not.toBe(writer)
    expect(promptOf("project-a", "editor")).not.toBe(writer)
  })

  it("speaks the generated soul in agent mode, not the persona's own words", () => {
    const persona = personaFor("writer")
    const prompt = promptOf("project-a", "writer")
    const soul = generateSoul({ seed: "project-a/writer", role: "writer" }).fields
    expect(prompt).toBe(compilePrompt(persona.name, soul, { mode: "agent", role: "writer", job: persona.description }))
    expect(prompt).toContain(`You are ${persona.name}, the writer of a small studio team. ${persona.description}`)
    expect(prompt).toContain(`Your story: ${soul.backstory}`)
    expect(prompt).toContain(`Your voice: ${soul.voice}`)
    expect(prompt).not.toContain(persona.voice)
    for (const rule of agentRules) expect(prompt).toContain(rule)
    // A citizen's rule would have the agent refuse to work as one.
    expect(prompt).not.toContain(hardRules[0])
  })
})
