/** Every table owner's migrations, in one record; the number in each key orders them. */
import { beingMigrations } from "../actors/being/migrations.ts"
import type { Migrations } from "../kernel/database.ts"
import { pluginMigrations } from "../kernel/extensions/migrations.ts"
import { modelMigrations } from "../extensions/models/migrations.ts"
import { agentMigrations } from "../extensions/agents/migrations.ts"
import { generatorMigrations } from "../extensions/generators/migrations.ts"
import { projectMigrations } from "../actors/project/migrations.ts"
import { accountMigrations } from "../extensions/accounts/migrations.ts"
import { desktopMigrations } from "../extensions/desktop/migrations.ts"
import { timeMigrations } from "../extensions/time/migrations.ts"
import { twinMigrations } from "../extensions/twin/migrations.ts"
import { marketMigrations } from "../extensions/market/migrations.ts"
import { themeMigrations } from "../extensions/themes/migrations.ts"
import { soulMigrations } from "../extensions/souls/migrations.ts"
import { threadMigrations } from "../extensions/threads/migrations.ts"
import { federationMigrations } from "../extensions/federation/migrations.ts"
import { peerMigrations } from "../actors/peer/migrations.ts"
import { seedMigrations } from "../actors/seed/migrations.ts"
import { groupMigrations } from "../extensions/groups/migrations.ts"
import { httpMigrations } from "./http/migrations.ts"
import { integrationMigrations } from "../extensions/comms/migrations.ts"
import { broadcastMigrations } from "./broadcast/migrations.ts"
import { mcpMigrations } from "../extensions/mcp/migrations.ts"
import { pushMigrations } from "../extensions/push/migrations.ts"

export const migrations: Migrations = {
  ...accountMigrations,
  ...pluginMigrations,
  ...modelMigrations,
  ...beingMigrations,
  ...desktopMigrations,
  ...agentMigrations,
  ...generatorMigrations,
  ...projectMigrations,
  ...timeMigrations,
  ...twinMigrations,
  ...marketMigrations,
  ...themeMigrations,
  ...soulMigrations,
  ...threadMigrations,
  ...federationMigrations,
  ...peerMigrations,
  ...seedMigrations,
  ...groupMigrations,
  ...httpMigrations,
  ...integrationMigrations,
  ...broadcastMigrations,
  ...mcpMigrations,
  ...pushMigrations
}
