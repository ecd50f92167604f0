/**
 * GET and HEAD /api/files/download?id=: one of the caller's files, as a download
 * (Content-Disposition: attachment), with ranges and conditional requests (kernel/http/file-response.ts).
 * A raw route beside the contract, since the answer is the file's bytes. The id is resolved
 * against the caller's own scopes (file-access.ts): another being's file is missing (404).
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { mimeOf } from "./contract/mime.ts"
import { FileIdParams } from "./contract/records.ts"
import { FileAccess } from "./contract/file-access.ts"
import { fileResponse } from "../../kernel/http/file-response.ts"
import { rawCaller } from "../accounts/contract/raw-caller.ts"
import { answerRefusal, queryParams, unauthorized } from "../../kernel/http/raw-route.ts"

export const DOWNLOAD_PATH = "/api/files/download"

export const serveDownload = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return unauthorized
  const { id } = yield* queryParams(FileIdParams)
  const file = yield* (yield* FileAccess).open(caller.value, id)
  return fileResponse(request.method, request.headers, {
    ...file,
    contentType: mimeOf(file.name),
    disposition: "attachment"
  })
}).pipe(Effect.catchAll(answerRefusal))
