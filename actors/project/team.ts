/**
 * The run's team: one member per role of the plan (studio/agents/team.ts decides who), each
 * given an id for the run (a saved agent keeps its own). The members are stored with their
 * system prompts, so a resumed run talks to the same agents without assembling again.
 */
import * as Effect from "effect/Effect"
import type { ModelTier } from "../../extensions/models/contract/records.ts"
import { assembleTeam, type RoleNeed } from "./team-assembly.ts"
import { newId } from "./store.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import type { StoredMember } from "./repositories/teams-repository.ts"

/** A member as the run uses it. */
export type RunMember = StoredMember

const normal = (role: string) => role.trim().toLowerCase().replace(/\s+/g, " ")

/** One need per role, in order of first appearance, with every skill its tasks name. */
export const roleNeeds = (tasks: ReadonlyArray<TaskRecord>): Array<RoleNeed> => {
  const needs = new Map<string, { role: string; skills: Array<string> }>()
  for (const task of tasks) {
    const need = needs.get(normal(task.role)) ?? { role: task.role, skills: [] }
    for (const skill of task.skills) if (!need.skills.includes(skill)) need.skills.push(skill)
    needs.set(normal(task.role), need)
  }
  return [...needs.values()]
}

export const assembleRunTeam = (tasks: ReadonlyArray<TaskRecord>, ownerId: string, projectId: string) =>
  Effect.gen(function* () {
    const members = yield* assembleTeam(roleNeeds(tasks), ownerId, projectId)
    const run = members.map((member): RunMember => ({
      agentId: member.source === "saved" ? member.agent.id : `persona-${newId()}`,
      role: member.role,
      name: member.agent.name,
      avatar: member.agent.avatar,
      source: member.source,
      skills: member.agent.skills,
      tier: member.agent.tier as ModelTier,
      systemPrompt: member.agent.systemPrompt
    }))
    const byRole = new Map(run.map((member) => [normal(member.role), member]))
    const assignments = new Map(tasks.map((task) => [task.id, byRole.get(normal(task.role))!.agentId]))
    const lead = run.find((member) => normal(member.role) === "lead") ?? run[0]
    return { members: run, lead, assignments }
  })

export const memberFor = (members: ReadonlyArray<RunMember>, task: TaskRecord): RunMember | undefined =>
  members.find((member) => member.agentId === task.assigneeAgentId) ?? members.find((member) => normal(member.role) === normal(task.role))
