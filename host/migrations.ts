/** Every table owner's migrations, in one record; the number in each key orders them. */
import type { Migrations } from "../kernel/database.ts"
import { pluginMigrations } from "../kernel/extensions/migrations.ts"
import { accountMigrations } from "./auth/migrations.ts"

export const migrations: Migrations = { ...accountMigrations, ...pluginMigrations }
