/**
 * The export route: everything of the caller's own, as a ZIP in open formats (Markdown with YAML front matter, JSON
 * Lines, iCalendar, CSV), streamed. Any session; only the caller's own data.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { RateClass } from "../../../../kernel/contract/endpoint-policy.ts"
import { Authentication } from "../../../accounts/contract/session.ts"

export class ExportApi extends HttpApiGroup.make("export")
  .annotate(OpenApi.Description, 'Your data in formats other programs read (docs/api.md "Export").')
  .add(
    HttpApiEndpoint.get("download", "/export.zip")
      .annotate(OpenApi.Summary, "Export your data")
      .annotate(
        OpenApi.Description,
        "A ZIP `export-<handle>-<date>.zip`, streamed: `README.md`, `profile.json`, `memories.jsonl` and " +
          "`memories/<id>.md` (YAML front matter: kind, tags, importance, source, createdAt), `calendar.ics` " +
          "(RFC 5545: VEVENTs with their RRULEs, to-dos as VTODOs), `threads/<title>-<id>.md`, " +
          "`projects/<slug>/` (outputs, `plan.json`, `trace.jsonl`) and `ledger.csv`. Any session, the caller's own " +
          "data only; rate class `upload`."
      )
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/zip" }))
      .annotate(RateClass, "upload")
  )
  .middleware(Authentication)
  .prefix("/api") {}
