/**
 * The files routes of the contract: list a scope's folder, search by name, read a small file as
 * JSON, upload. Every route needs a session and reaches only the caller's own scopes. The
 * download (the file's bytes, with ranges and conditional requests) is a raw route beside these
 * (extensions/files/download-route.ts).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
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
  .add(
    HttpApiEndpoint.get("list", "/files")
      .setUrlParams(FileListParams)
      .addSuccess(Schema.Array(FileEntry))
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.get("search", "/files/search").setUrlParams(FileSearchParams).addSuccess(Schema.Array(FileEntry)))
  .add(
    HttpApiEndpoint.get("read", "/files/read")
      .setUrlParams(FileIdParams)
      .addSuccess(FileContent)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(
    // multipart/form-data, streamed by the handler (busboy): the contract declares no payload schema.
    HttpApiEndpoint.post("upload", "/files/upload")
      .addSuccess(Schema.Array(FileEntry))
      .addError(InvalidRequest.schema)
      .addError(PayloadTooLarge.schema)
      .annotate(RateClass, "upload")
      .annotate(BodyLimit, { bytes: DEFAULT_MAX_UPLOAD_BYTES, setting: MAX_UPLOAD_BYTES_SETTING })
      .annotate(ContentTypes, ["multipart/form-data"])
  )
  .middleware(Authentication)
  .prefix("/api")
{}
