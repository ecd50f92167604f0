/** Every table owner's migrations, in one record; the number in each key orders them. */
import { beingMigrations } from "../actors/being/migrations.ts"
import type { Migrations } from "../kernel/database.ts"
import { pluginMigrations } from "../kernel/extensions/migrations.ts"
import { modelMigrations } from "../models/migrations.ts"
import { agentMigrations } from "../studio/agents/migrations.ts"
import { generatorMigrations } from "../studio/generators/migrations.ts"
import { projectMigrations } from "../studio/projects/migrations.ts"
import { accountMigrations } from "./auth/migrations.ts"
import { desktopMigrations } from "./desktop/migrations.ts"

export const migrations: Migrations = {
  ...accountMigrations,
  ...pluginMigrations,
  ...modelMigrations,
  ...beingMigrations,
  ...desktopMigrations,
  ...agentMigrations,
  ...generatorMigrations,
  ...projectMigrations
}
