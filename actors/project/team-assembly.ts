/**
 * Team assembly for a plan: one member per role it names. A saved agent of the owner is reused
 * when its role is the same (ignoring case and spacing) and its skills, baseline included, cover
 * every skill the role's tasks need; among several, the one with the fewest skills, then the
 * newest. Otherwise an ephemeral agent is built from the role's persona: no row, no being, no
 * model call. It carries the skills the tasks need (the persona's defaults when none are named)
 * and the baseline, and wears a soul generated from the project and the role (the souls engine,
 * through the AgentSouls port), compiled in agent mode: the same project and role give the same
 * soul, so a resumed or repeated run talks to the same agent. Needed skills are not checked here:
 * the plan's repair pass does that.
 * Before either, a seat of the project's crew whose role is the same takes the role: a person,
 * the first of the crew to sit in it (docs/decisions.md "Groups and crews").
 */
import * as Effect from "effect/Effect"
import { AgentSouls, SavedAgents } from "./ports.ts"
import type { Seat } from "../../extensions/groups/contract/records.ts"
import { personaFor } from "../../seeds/personas.ts"
import type { ModelTier } from "../../extensions/models/contract/records.ts"
import type { Agent } from "../../extensions/agents/contract/agent.ts"
import { withBaseline } from "../../extensions/agents/contract/baseline.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** A role of the plan and every skill its tasks need (merge a role's tasks into one entry). */
export interface RoleNeed {
  readonly role: string
  readonly skills: ReadonlyArray<string>
}

/** An agent that lives only for the run: not stored, worn by no being yet. */
export interface EphemeralAgent {
  readonly ownerId: string
  /** The persona it was built from (its role: `writer`...). */
  readonly persona: string
  readonly name: string
  /** The role as the plan named it. */
  readonly role: string
  readonly description: string
  readonly avatar: string
  readonly skills: ReadonlyArray<string>
  readonly tier: ModelTier
  readonly systemPrompt: string
}

export type TeamMember =
  | { readonly role: string; readonly source: "saved"; readonly agent: Agent }
  | { readonly role: string; readonly source: "persona"; readonly agent: EphemeralAgent }
  | { readonly role: string; readonly source: "person"; readonly seat: Seat }

const normal = (role: string) => role.trim().toLowerCase().replace(/\s+/g, " ")

/** One member for each entry of `roles`, in order, for the project `projectId` and its crew's `seats`. */
export const assembleTeam = (
  roles: ReadonlyArray<RoleNeed>,
  ownerId: string,
  projectId: string,
  seats: ReadonlyArray<Seat> = []
) =>
  Effect.gen(function* () {
    const agents = yield* SavedAgents
    const souls = yield* AgentSouls
    // Newest first, so a stable sort by size keeps the newest among equals first.
    const saved = yield* agents.ownedBy(ownerId)
    const registered = yield* agents.registeredSkills
    return roles.map((need): TeamMember => {
      const seat = seats.find((candidate) => normal(candidate.role) === normal(need.role))
      if (seat !== undefined) return { role: need.role, source: "person", seat }
      const fit = saved
        .filter(
          (agent) =>
            normal(agent.role) === normal(need.role) && need.skills.every((skill) => agent.skills.includes(skill))
        )
        .sort((a, b) => a.skills.length - b.skills.length)[0]
      if (fit !== undefined) return { role: need.role, source: "saved", agent: fit }
      const persona = personaFor(need.role)
      const role = normal(need.role)
      return {
        role: need.role,
        source: "persona",
        agent: {
          ownerId,
          persona: persona.role,
          name: persona.name,
          role: need.role,
          description: persona.description,
          avatar: persona.avatar,
          skills: withBaseline(need.skills.length > 0 ? need.skills : persona.skills, registered),
          tier: persona.tier,
          systemPrompt: souls.promptFor({
            seed: `${projectId}/${role}`,
            name: persona.name,
            role,
            job: persona.description
          })
        }
      }
    })
  }).pipe(spanNamed("project.assembleTeam"))
