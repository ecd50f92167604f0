/**
 * The restore a node with no owner yet offers on its register page: a backup uploaded with its passphrase, checked,
 * and the node relaunched in place on it (docs/decisions.md "Restore from the register page"). Public: there is no
 * one to sign in as yet.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { BodyLimit, ContentTypes, RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, InvalidRequest, PayloadTooLarge } from "../../../kernel/contract/errors.ts"
import { DEFAULT_MAX_RESTORE_BYTES, MAX_RESTORE_BYTES_SETTING, RestoreAvailability, RestoreStarted } from "./records.ts"

export class SetupRestoreApi extends HttpApiGroup.make("setupRestore")
  .annotate(
    OpenApi.Description,
    "Restoring a backup onto a node that has no owner yet, from its register page. Public; once someone owns the " +
      "node every route here refuses with 409 `owner_exists`."
  )
  .add(
    HttpApiEndpoint.get("availability", "/setup/restore")
      .annotate(OpenApi.Summary, "Whether this node takes a restore")
      .annotate(
        OpenApi.Description,
        "`available` while the node has no owner, keeps its database in SQLite and can relaunch itself; else " +
          "`reason` is the code a restore would be refused with. `maxBytes` is MAX_RESTORE_BYTES. Public."
      )
      .addSuccess(RestoreAvailability)
  )
  .add(
    // multipart/form-data (`file`, `passphrase`), streamed to disk by the handler: no payload schema.
    HttpApiEndpoint.post("restore", "/setup/restore")
      .annotate(OpenApi.Summary, "Restore a backup onto this node")
      .annotate(
        OpenApi.Description,
        "A backup (`file`) and its `passphrase` as multipart/form-data. The file is streamed to a staging file " +
          "under DATA_DIR, decrypted and checked (every SHA-256, the database's integrity) before anything " +
          "changes; then the answer is 202 `{ restarting: true, createdAt, ownerHandle, counts }` and the node " +
          "stops, moves its data folder aside, places the backup and starts again on the same port with the " +
          "restored data (poll `GET /api/health`). Public; rate class `upload`. Refusals: 400 `no_file`, 400 " +
          "`invalid_request` (no passphrase), 400 `wrong_passphrase`, 400 `damaged_backup`, 400 `not_a_backup`, 400 " +
          "`newer_backup_format` (each changes nothing); 409 `owner_exists`, 409 `use_pg_dump` (PostgreSQL, a " +
          "cluster), 409 `restore_running`, 409 `relaunch_unavailable`; 413 past MAX_RESTORE_BYTES; 415 for a body " +
          "that is not multipart."
      )
      .addSuccess(RestoreStarted, { status: 202 })
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
      .addError(PayloadTooLarge.schema)
      .annotate(RateClass, "upload")
      .annotate(BodyLimit, {
        bytes: DEFAULT_MAX_RESTORE_BYTES,
        setting: MAX_RESTORE_BYTES_SETTING,
        allowance: 64 * 1024
      })
      .annotate(ContentTypes, ["multipart/form-data"])
  )
  .prefix("/api") {}
