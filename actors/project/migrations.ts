/**
 * The tables of studio projects. The rows are also the run's checkpoints: a project's stored
 * plan (its task rows), its team row, each task's final row (status, report, text output) and
 * the review row are each written once the step that made them has finished, and a resumed run
 * skips every step whose row is there (docs/decisions.md, "Durable project runs").
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "../../kernel/column-types.ts"
import type { Migrations } from "../../kernel/database.ts"
import { addSequenceColumn } from "../../kernel/sequence-column.ts"

export const projectMigrations: Migrations = {
  "0420_studio_projects": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    yield* sql`CREATE TABLE projects (
      id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL REFERENCES beings (id) ON DELETE CASCADE,
      generator_id TEXT,
      title TEXT NOT NULL,
      brief TEXT NOT NULL,
      inputs TEXT NOT NULL,
      status TEXT NOT NULL,
      team_id TEXT,
      cost_usd ${t.double} NOT NULL DEFAULT 0,
      error TEXT,
      run_number INTEGER NOT NULL DEFAULT 1,
      planned INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX projects_by_owner ON projects (owner_id, created_at)`
    yield* sql`CREATE TABLE project_tasks (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      key TEXT NOT NULL,
      parent_id TEXT,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      instruction TEXT NOT NULL,
      role TEXT NOT NULL,
      assignee_agent_id TEXT,
      skills TEXT NOT NULL,
      tier TEXT NOT NULL,
      depends_on TEXT NOT NULL,
      output_kind TEXT NOT NULL,
      contract TEXT,
      template TEXT,
      status TEXT NOT NULL,
      input TEXT,
      output TEXT,
      output_text TEXT,
      earlier_text TEXT,
      error TEXT,
      cost_usd ${t.double} NOT NULL DEFAULT 0,
      started_at TEXT,
      finished_at TEXT,
      UNIQUE (project_id, key)
    )`
    yield* sql`CREATE INDEX project_tasks_by_project ON project_tasks (project_id, position)`
    yield* sql`CREATE TABLE project_teams (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL UNIQUE REFERENCES projects (id) ON DELETE CASCADE,
      lead_agent_id TEXT NOT NULL,
      members TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    yield* sql`CREATE TABLE project_outputs (
      id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      task_id TEXT,
      kind TEXT NOT NULL,
      name TEXT NOT NULL,
      path TEXT NOT NULL,
      size ${t.bigint} NOT NULL,
      preview_url TEXT,
      UNIQUE (project_id, path)
    )`
    yield* sql`CREATE TABLE project_reviews (
      project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
      verdict TEXT NOT NULL,
      notes TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`
    // '' as task_id is the project's own date: a primary key cannot hold NULL distinctly.
    yield* sql`CREATE TABLE project_due_dates (
      project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      task_id TEXT NOT NULL,
      due_at TEXT NOT NULL,
      PRIMARY KEY (project_id, task_id)
    )`
    yield* sql`CREATE TABLE project_traces (
      seq ${t.autoincrement},
      project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      task_id TEXT,
      kind TEXT NOT NULL,
      agent_id TEXT,
      text TEXT NOT NULL,
      data TEXT NOT NULL,
      at TEXT NOT NULL
    )`
    yield* sql`CREATE INDEX project_traces_by_project ON project_traces (project_id, seq)`
  }),
  // A step a person holds (a seat of the project's crew, docs/decisions.md "Groups and crews").
  "1220_project_task_people": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE project_tasks ADD COLUMN assignee_being_id TEXT`
    yield* sql`CREATE INDEX project_tasks_by_person ON project_tasks (assignee_being_id) WHERE assignee_being_id IS NOT NULL`
  }),
  // Plans and gates (docs/decisions.md "Plans and gates"): a step's kind, whether the owner chose its
  // assignee, and the plan's version an edit is made on. Numbered after 1220: the migrator runs only
  // keys above the last one a database has applied.
  "0421_project_plan_edits": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE project_tasks ADD COLUMN kind TEXT NOT NULL DEFAULT 'work'`
    yield* sql`ALTER TABLE project_tasks ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0`
    yield* sql`ALTER TABLE projects ADD COLUMN plan_version INTEGER NOT NULL DEFAULT 0`
  }),
  // A project's outputs listed in the order they were written (was SQLite's rowid).
  "0422_project_outputs_seq": addSequenceColumn("project_outputs"),
  // A step that waits for the owner's decision on a world-acting call: the signal, and the agent's conversation as it
  // stood, so a restart goes on from there without calling the model again (docs/decisions.md "Runs that wait").
  "0423_project_task_decisions": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE project_tasks ADD COLUMN decision_signal_id TEXT`
    yield* sql`ALTER TABLE project_tasks ADD COLUMN checkpoint TEXT`
  }),
  // A project's numbered runs with their own spend, and what a replay keeps and adds to a step (docs/decisions.md
  // "Start again from any step"). A project made before has one row: its current run, with all it spent.
  "1530_project_runs": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const t = yield* columnTypes
    yield* sql`CREATE TABLE project_runs (
      project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      number INTEGER NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      cost_usd ${t.double} NOT NULL DEFAULT 0,
      from_task_id TEXT,
      instruction TEXT,
      forked_from TEXT,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      PRIMARY KEY (project_id, number)
    )`
    yield* sql`INSERT INTO project_runs (project_id, number, kind, status, cost_usd, started_at, finished_at)
      SELECT id, run_number, CASE WHEN run_number = 1 THEN 'start' ELSE 'resume' END, status, cost_usd, created_at,
        CASE WHEN status IN ('done', 'failed', 'cancelled') THEN updated_at END
      FROM projects`
    yield* sql`ALTER TABLE project_tasks ADD COLUMN kept_in_run INTEGER`
    yield* sql`ALTER TABLE project_tasks ADD COLUMN added_instruction TEXT`
  })
}
