/**
 * The run's team: one member per role of the plan (studio/agents/team.ts decides who), each
 * given an id for the run (a saved agent keeps its own). The members are stored with their
 * system prompts, so a resumed run talks to the same agents without assembling again.
 */
import * as Effect from "effect/Effect"
import type { ModelTier } from "../../extensions/models/contract/records.ts"
import { assembleTeam, type RoleNeed, type TeamMember } from "./team-assembly.ts"
import type { Seat } from "../../extensions/groups/contract/records.ts"
import { newId } from "./store.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import type { Assignment, StoredMember } from "./repositories/teams-repository.ts"

/** A member as the run uses it. */
export type RunMember = StoredMember

const normal = (role: string) => role.trim().toLowerCase().replace(/\s+/g, " ")

/** A step the team staffs: not a gate (a person's), not one the owner gave to someone in a plan edit. */
const staffed = (task: TaskRecord) => task.kind === "work" && !task.pinned

/** One need per role, in order of first appearance, with every skill its tasks name. */
export const roleNeeds = (tasks: ReadonlyArray<TaskRecord>): Array<RoleNeed> => {
  const needs = new Map<string, { role: string; skills: Array<string> }>()
  for (const task of tasks.filter(staffed)) {
    const need = needs.get(normal(task.role)) ?? { role: task.role, skills: [] }
    for (const skill of task.skills) if (!need.skills.includes(skill)) need.skills.push(skill)
    needs.set(normal(task.role), need)
  }
  return [...needs.values()]
}

export const runMember = (member: TeamMember): RunMember =>
  member.source === "person"
    ? {
        // A person is known by their being: it is what their queue and the finish route check.
        agentId: member.seat.beingId,
        role: member.role,
        name: member.seat.name,
        avatar: "🧑",
        source: "person",
        skills: [],
        tier: "cheap",
        systemPrompt: ""
      }
    : {
        agentId: member.source === "saved" ? member.agent.id : `persona-${newId()}`,
        role: member.role,
        name: member.agent.name,
        avatar: member.agent.avatar,
        source: member.source,
        skills: member.agent.skills,
        tier: member.agent.tier as ModelTier,
        systemPrompt: member.agent.systemPrompt
      }

/** The team for the plan, with the crew's seats first; steps already done keep who did them. */
export const assembleRunTeam = (
  tasks: ReadonlyArray<TaskRecord>,
  ownerId: string,
  projectId: string,
  seats: ReadonlyArray<Seat> = []
) =>
  Effect.gen(function* () {
    const needs = roleNeeds(tasks)
    // A plan of gates and chosen assignees only still has a lead for the team row.
    const run = (yield* assembleTeam(
      needs.length > 0 ? needs : [{ role: "lead", skills: [] }],
      ownerId,
      projectId,
      seats
    )).map(runMember)
    const byRole = new Map(run.map((member) => [normal(member.role), member]))
    const assignments = new Map(
      tasks
        .filter((task) => task.status !== "done" && staffed(task))
        .map((task): [string, Assignment] => {
          const member = byRole.get(normal(task.role))!
          return [task.id, { agentId: member.agentId, beingId: member.source === "person" ? member.agentId : null }]
        })
    )
    const lead = run.find((member) => normal(member.role) === "lead") ?? run[0]
    return { members: run, lead, assignments }
  })

export const memberFor = (members: ReadonlyArray<RunMember>, task: TaskRecord): RunMember | undefined =>
  members.find((member) => member.agentId === task.assigneeAgentId) ??
  members.find((member) => normal(member.role) === normal(task.role))
