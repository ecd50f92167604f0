/**
 * The files routes of the contract: list a scope's folder, search by name, read a small file as
 * JSON, upload. Every route needs a session and reaches only the caller's own scopes. The
 * download (the file's bytes, with ranges and conditional requests) is a raw route beside these
 * (extensions/files/download-route.ts).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { BodyLimit, ContentTypes, RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Forbidden, InvalidRequest, NotFound, PayloadTooLarge } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  DEFAULT_MAX_UPLOAD_BYTES,
  FileContent,
  FileEntry,
  FileIdParams,
  FileListParams,
  FileSearchParams,
  MAX_UPLOAD_BYTES_SETTING
} from "./records.ts"

export class FilesApi extends HttpApiGroup.make("files")
  .annotate(
    OpenApi.Description,
    "Browsing, searching, reading and uploading files in the scopes a being may see: its uploads, its projects' " +
      "workspaces and (the owner) the node's user folder. Downloads with ranges are a raw route beside the " +
      "contract."
  )
  .add(
    HttpApiEndpoint.get("list", "/files")
      .annotate(OpenApi.Summary, "List a folder")
      .annotate(
        OpenApi.Description,
        "One folder of a scope (`upload`, `project` with `projectId`, or `user` for the owner): folders first, " +
          "then files, at most 1000. Any session. Refusals: 400 `invalid_path`, 400 `not_a_folder`, 403 " +
          "`forbidden` (the `user` scope for anyone but the owner), 404 `not_found`."
      )
      .setUrlParams(FileListParams)
      .addSuccess(Schema.Array(FileEntry))
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("search", "/files/search")
      .annotate(OpenApi.Summary, "Search files by name")
      .annotate(
        OpenApi.Description,
        "Files whose name holds `q` across the caller's uploads, their projects' workspaces and (the owner) the " +
          "user folder; at most 100. Any session."
      )
      .setUrlParams(FileSearchParams)
      .addSuccess(Schema.Array(FileEntry))
  )
  .add(
    HttpApiEndpoint.get("read", "/files/read")
      .annotate(OpenApi.Summary, "Read a file")
      .annotate(
        OpenApi.Description,
        "A file's text, or its bytes as base64, with its media type; at most 1 MiB (use the download beyond). " +
          "Any session; only files the caller may see. Refusals: 400 `file_too_large` (`details.limitBytes`), 400 " +
          "`invalid_path`, 400 `not_a_file`, 404 `not_found`."
      )
      .setUrlParams(FileIdParams)
      .addSuccess(FileContent)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(
    // multipart/form-data, streamed by the handler (busboy): the contract declares no payload schema.
    HttpApiEndpoint.post("upload", "/files/upload")
      .annotate(OpenApi.Summary, "Upload files")
      .annotate(
        OpenApi.Description,
        "A multipart body of one or more file parts and an optional `path` folder inside the caller's uploads; " +
          "answers the stored files. Any session; rate class `upload`. Refusals: 400 `no_file`, " +
          "`invalid_filename`, `too_many_files`, `invalid_path`; 413 past MAX_UPLOAD_BYTES; 415 for a body that is " +
          "not multipart."
      )
      .addSuccess(Schema.Array(FileEntry))
      .addError(InvalidRequest.schema)
      .addError(PayloadTooLarge.schema)
      .annotate(RateClass, "upload")
      .annotate(BodyLimit, { bytes: DEFAULT_MAX_UPLOAD_BYTES, setting: MAX_UPLOAD_BYTES_SETTING })
      .annotate(ContentTypes, ["multipart/form-data"])
  )
  .middleware(Authentication)
  .prefix("/api") {}
