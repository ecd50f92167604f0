/**
 * What the files API tests share: a node with an owner whose own folder holds a letter, a member,
 * an upload limit small enough to pass, and a project whose workspace holds a report.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll } from "vitest"
import { ProjectStore } from "../../actors/project/store.ts"
import { nodeWithOwner, registerMember, type Registered } from "../support/node.ts"

export const UPLOAD_LIMIT = 64 * 1024
export const projectId = "proj_files_test"

/** Starts the node before the file's tests, with the member, the owner's folder and the project. */
export const filesNode = () => {
  const context = nodeWithOwner((dataDir) => {
    const userFolder = join(dataDir, "owner-folder")
    mkdirSync(join(userFolder, "letters"), { recursive: true })
    writeFileSync(join(userFolder, "letters", "to-ada.txt"), "Dear Ada")
    return { filesRoot: Option.some(userFolder), maxUploadBytes: UPLOAD_LIMIT }
  }) as ReturnType<typeof nodeWithOwner> & { member: Registered }
  beforeAll(async () => {
    context.member = await registerMember(context.node, context.owner.client)
    await context.node.runtime.runPromise(
      Effect.flatMap(ProjectStore, (store) =>
        store.insertProject({
          id: projectId,
          ownerId: context.owner.being.id,
          generatorId: null,
          title: "Files",
          brief: "Files",
          inputs: {}
        })
      ).pipe(Effect.provide(ProjectStore.Default))
    )
    const workspace = join(context.node.dataDir, "projects", projectId, "workspace")
    mkdirSync(join(workspace, "out"), { recursive: true })
    writeFileSync(join(workspace, "out", "report.md"), "# Report\n")
  })
  return context
}

/** Where a being's uploads lie on the node's disk. */
export const uploadsOf = (context: { readonly node: { readonly dataDir: string } }, beingId: string) =>
  join(context.node.dataDir, "uploads", beingId)
