/**
 * The backups routes (owner only): make an encrypted backup of the whole node, list them, verify one with its
 * passphrase, download one, delete one, see the schedule. On PostgreSQL every route answers 409 `use_pg_dump`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  Backup,
  BackupIdParams,
  BackupSchedule,
  BackupVerification,
  CreateBackupRequest,
  VerifyBackupRequest
} from "./records.ts"

const ownerOnly = "Owner only (403 `forbidden`); on PostgreSQL 409 `use_pg_dump`."

export class BackupsApi extends HttpApiGroup.make("backups")
  .annotate(
    OpenApi.Description,
    "Encrypted backups of the whole node (database snapshot, files, plugins, the key that opens sealed secrets) in " +
      "BACKUP_DIR, each one `backup-<UTC time>.tar.gz.age`: a gzipped tar encrypted to a passphrase with age. " +
      'Restore with `npm run restore -- <file>` (docs/operations.md "Backups").'
  )
  .add(
    HttpApiEndpoint.post("create", "/backups")
      .annotate(OpenApi.Summary, "Make a backup")
      .annotate(
        OpenApi.Description,
        "Writes one backup encrypted to `passphrase` (at least 12 characters) while the node keeps serving. " +
          `${ownerOnly} Refusals: 400 \`weak_passphrase\`; 409 \`backup_running\` while another is written.`
      )
      .setPayload(CreateBackupRequest)
      .addSuccess(Backup, { status: 201 })
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.get("list", "/backups")
      .annotate(OpenApi.Summary, "List backups")
      .annotate(OpenApi.Description, `The backups in BACKUP_DIR, newest first. ${ownerOnly}`)
      .addSuccess(Schema.Array(Backup))
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.get("schedule", "/backups/schedule")
      .annotate(OpenApi.Summary, "The backup schedule")
      .annotate(
        OpenApi.Description,
        `BACKUP_EVERY_HOURS (null: off), BACKUP_KEEP and the last scheduled run's time and error. ${ownerOnly}`
      )
      .addSuccess(BackupSchedule)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("verify", "/backups/:id/verify")
      .annotate(OpenApi.Summary, "Verify a backup")
      .annotate(
        OpenApi.Description,
        "Decrypts the backup with `passphrase`, checks every entry's SHA-256 against its manifest, runs SQLite's " +
          "`PRAGMA integrity_check` on its database and compares the counts. A wrong passphrase or a damaged file " +
          `is \`ok: false\` with the problem named. ${ownerOnly} Refusals: 404 \`not_found\`.`
      )
      .setPath(BackupIdParams)
      .setPayload(VerifyBackupRequest)
      .addSuccess(BackupVerification)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.get("download", "/backups/:id/download")
      .annotate(OpenApi.Summary, "Download a backup")
      .annotate(
        OpenApi.Description,
        "The encrypted file as an attachment, with ranges and conditional requests as file downloads have. " +
          `${ownerOnly} Refusals: 404 \`not_found\`.`
      )
      .setPath(BackupIdParams)
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }))
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("remove", "/backups/:id")
      .annotate(OpenApi.Summary, "Delete a backup")
      .annotate(OpenApi.Description, `Removes the backup's file. ${ownerOnly} Refusals: 404 \`not_found\`.`)
      .setPath(BackupIdParams)
      .addSuccess(Schema.Void, { status: 204 })
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .middleware(Authentication)
  .prefix("/api") {}
