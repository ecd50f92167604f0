/**
 * An editor saving back the file it was opened on, for the session's being: only an editor (not a
 * module, widget or viewer), only when its plugin was granted `filesystem` and the editor uses it,
 * only a file of a type the editor declared, only a file the being can already open through the
 * files routes (their uploads, their own projects, the owner's folder for the owner: another
 * being's reads as missing), only over an existing file, at most `maxHandledFileBytes`.
 */
import * as Effect from "effect/Effect"
import { mimeOf } from "../files/contract/mime.ts"
import {
  CapabilityNotGranted,
  EditedFileNotFound,
  EditedFileTooLarge,
  FileNotSaved,
  FileTypeNotHandled,
  NotAnEditor
} from "./contract/errors.ts"
import { handlesFile, maxHandledFileBytes } from "../../kernel/contract/plugin-kinds.ts"
import { describeFileError } from "../../kernel/extensions/file-root.ts"
import type { ExtensionHostShape } from "../../kernel/extensions/host.ts"
import type { Caller } from "../accounts/contract/session.ts"
import type { SaveEditedFile } from "./contract/api.ts"
import type { FileAccessShape } from "../files/contract/file-access.ts"
import { decodeFileId } from "../files/contract/file-ids.ts"
import type { FileHandlerContribution } from "../../kernel/extensions/contributions.ts"
import { findModule } from "./installed-modules.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const saveEditedFile = (
  host: ExtensionHostShape,
  files: FileAccessShape,
  caller: Caller,
  pluginId: string,
  extensionId: string,
  body: SaveEditedFile
) =>
  Effect.gen(function* () {
    const { module, granted } = yield* findModule(host, pluginId, extensionId)
    const fileTypes = module.kind === "editor" ? (module.value as FileHandlerContribution).fileTypes : null
    if (fileTypes === null) {
      return yield* new NotAnEditor({
        message: `${module.name} is a ${module.kind}, not an editor: only an editor saves files.`,
        details: { kind: module.kind }
      })
    }
    if (!granted.includes("filesystem")) {
      return yield* new CapabilityNotGranted({
        message: `${module.name} needs the filesystem capability to save a file, which it was not granted.`,
        details: { missing: ["filesystem"] }
      })
    }
    const bytes = Buffer.byteLength(body.content, "utf8")
    if (bytes > maxHandledFileBytes) {
      return yield* new EditedFileTooLarge({
        message: `An editor saves at most ${maxHandledFileBytes / 1024} KB.`,
        details: { sizeBytes: bytes, limitBytes: maxHandledFileBytes }
      })
    }
    // Opening it first answers for access exactly as the files routes do (another being's: 404).
    const opened = yield* files.open(caller, body.fileId)
    yield* Effect.promise(() => opened.handle.close())
    if (!handlesFile(fileTypes, opened.name, mimeOf(opened.name))) {
      return yield* new FileTypeNotHandled({
        message: `${module.name} does not edit files like ${opened.name.slice(0, 100)}.`,
        details: { fileTypes: fileTypes }
      })
    }
    const ref = decodeFileId(body.fileId)!
    const root = yield* files
      .rootOf(caller, ref.scope, ref.projectId ?? undefined)
      .pipe(Effect.mapError(() => new EditedFileNotFound({ message: "There is no such file in your files." })))
    if (root === null) return yield* new EditedFileNotFound({ message: "There is no such file in your files." })
    const written = yield* Effect.tryPromise({
      try: () => root.folder.write(ref.path, Buffer.from(body.content, "utf8")),
      catch: (error) => new FileNotSaved({ message: describeFileError(error, ref.path).message })
    })
    yield* Effect.logInfo(`editor ${module.name} saved a file for ${caller.beingId}`)
    return { size: written.size }
  }).pipe(spanNamed("modules.saveEditedFile", { attributes: { pluginId, extensionId } }))
