/**
 * The twin's import: files from where people's data lives (a calendar, notes or a zipped vault), each recognised by
 * its content, into the caller's own twin. Any session.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { BodyLimit, ContentTypes, RateClass } from "../../../../kernel/contract/endpoint-policy.ts"
import { InvalidRequest, PayloadTooLarge } from "../../../../kernel/contract/errors.ts"
import { Authentication } from "../../../accounts/contract/session.ts"
import { DEFAULT_MAX_IMPORT_BYTES, ImportResult, MAX_IMPORT_BYTES_SETTING } from "./records.ts"

export class TwinImportApi extends HttpApiGroup.make("twinImport")
  .annotate(OpenApi.Description, 'Bringing data into your twin from other programs (docs/api.md "Import").')
  .add(
    // multipart/form-data, read by the handler: the contract declares no payload schema.
    HttpApiEndpoint.post("import", "/twin/import")
      .annotate(OpenApi.Summary, "Import files into your twin")
      .annotate(
        OpenApi.Description,
        "One or more file parts, each recognised by its content: an iCalendar file (events with their RRULE, " +
          "EXDATE and time zones, VTODOs as to-dos; one imported before, by UID, is updated), Markdown or text " +
          "notes alone or zipped as a folder (an Obsidian vault: one `document` memory per note, front-matter tags " +
          "kept; a note already imported is skipped). Answers `{ imported: { events, todos, memories, threads }, " +
          "skipped, problems }`: a file that cannot be read is a problem named there, and what was read of the " +
          "others stays. Any session; rate class `upload`. Refusals: 400 `no_file`; 413 past MAX_IMPORT_BYTES; 415 " +
          "for a body that is not multipart."
      )
      .addSuccess(ImportResult)
      .addError(InvalidRequest.schema)
      .addError(PayloadTooLarge.schema)
      .annotate(RateClass, "upload")
      .annotate(BodyLimit, { bytes: DEFAULT_MAX_IMPORT_BYTES, setting: MAX_IMPORT_BYTES_SETTING })
      .annotate(ContentTypes, ["multipart/form-data"])
  )
  .middleware(Authentication)
  .prefix("/api") {}
