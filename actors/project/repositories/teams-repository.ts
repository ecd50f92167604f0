/**
 * The `project_teams` table: a run's team, written once the team is assembled. The members are
 * stored with their system prompts, so a resumed run talks to the same agents without
 * assembling again.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { TeamMemberView } from "../contract/records.ts"

/** A team member as stored: the wire view and the prompt the run gives its agent. */
export const StoredMember = Schema.Struct({ ...TeamMemberView.fields, systemPrompt: Schema.String })
export type StoredMember = typeof StoredMember.Type

/** Who holds a step: the member's id, and the person's being when a person does. */
export interface Assignment {
  readonly agentId: string
  readonly beingId: string | null
}

const Members = JsonColumn(Schema.Array(StoredMember))

export const TeamRow = Schema.Struct({
  id: Schema.String,
  leadAgentId: Schema.String,
  members: Members,
  createdAt: Schema.String
})
export type TeamRow = typeof TeamRow.Type

export class TeamsRepository extends Effect.Service<TeamsRepository>()("project/TeamsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findByProject = operation(
      "projectTeams.findByProject",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: TeamRow,
        execute: (projectId) => sql`SELECT id, lead_agent_id AS "leadAgentId", members, created_at AS "createdAt"
        FROM project_teams WHERE project_id = ${projectId}`
      })
    )

    /** A project's team, replacing the one an earlier run assembled (a crew bound since). */
    const insert = operation(
      "projectTeams.insert",
      SqlSchema.void({
        Request: Schema.Struct({ ...TeamRow.fields, projectId: Schema.String }),
        execute: (team) => sql`INSERT INTO project_teams (id, project_id, lead_agent_id, members, created_at)
        VALUES (${team.id}, ${team.projectId}, ${team.leadAgentId}, ${team.members}, ${team.createdAt})
        ON CONFLICT (project_id) DO UPDATE SET id = excluded.id, lead_agent_id = excluded.lead_agent_id, members = excluded.members,
          created_at = excluded.created_at`
      })
    )

    return { findByProject, insert } as const
  })
}) {}
