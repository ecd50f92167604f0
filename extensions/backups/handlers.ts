/**
 * The backups routes (owner only) over the Backups service: each handler checks the owner from the session, then
 * calls the service. The download answers the encrypted file's bytes as file downloads do (ranges, conditional
 * requests, attachment).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { requireOwner } from "../accounts/contract/owner.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { fileResponse } from "../../kernel/http/file-response.ts"
import { BackupsApi } from "./contract/api.ts"
import { Backups } from "./backups.ts"

export const BackupsHandlers = HttpApiBuilder.group(apiOf(BackupsApi), "backups", (handlers) =>
  Effect.map(Backups, (backups) =>
    handlers
      .handle("create", ({ payload }) => Effect.zipRight(requireOwner, backups.create(payload.passphrase)))
      .handle("list", () => Effect.zipRight(requireOwner, backups.list()))
      .handle("schedule", () => Effect.zipRight(requireOwner, backups.schedule()))
      .handle("verify", ({ path, payload }) =>
        Effect.zipRight(requireOwner, backups.verify(path.id, payload.passphrase))
      )
      .handle("remove", ({ path }) => Effect.zipRight(requireOwner, backups.remove(path.id)))
      .handle("download", ({ path, request }) =>
        Effect.zipRight(requireOwner, backups.openArchive(path.id)).pipe(
          Effect.map((file) =>
            fileResponse(request.method, request.headers, {
              ...file,
              contentType: "application/octet-stream",
              disposition: "attachment"
            })
          )
        )
      )
  )
)
