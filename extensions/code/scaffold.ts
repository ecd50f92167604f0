/**
 * code.scaffold_react_node (world-acting, as the spec lists it): a React front end and a Node
 * server from the template this extension ships, written into the file root where a file is not
 * there yet (an agent may write its own App.jsx first, or pass it as `app`), then built offline
 * with esbuild: the front end to one page at apps/web/dist/index.html, the server to
 * apps/server/dist/server.mjs. A failed build is an answer, `built: false` with the log, which the
 * pipeline's BuildArtefact verdict reads (`built`, `previewPath`, `buildLog`).
 */
import * as Schema from "effect/Schema"
import { readdir, readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { defineSkill, fileRootOf } from "../../kernel/extensions/skill.ts"
import { buildFrontEnd, buildHeader, buildServer, relativeTo, templateDir } from "./react-build.ts"

export const defaultEntry = "apps/web/dist/index.html"
const frontEntry = "apps/web/src/main.jsx"
const appFile = "apps/web/src/App.jsx"
const serverEntry = "apps/server/src/server.js"
const serverOut = "apps/server/dist/server.mjs"

const Input = Schema.Struct({
  title: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "give the app a title"),
    Schema.maxLength(120)
  ),
  app: Schema.optional(Schema.String.pipe(Schema.maxLength(200_000))).annotations({
    description: `The source of ${appFile} (a React component exported as App); the template's stays when it is absent and none was written.`
  })
})

const Output = Schema.Struct({
  built: Schema.Boolean,
  previewPath: Schema.NullOr(Schema.String).annotations({
    description: "The built page, relative to the root; null when the build failed."
  }),
  previewUrl: Schema.NullOr(Schema.String).annotations({
    description: "Where the node previews it, inside a project; else null."
  }),
  buildLog: Schema.String,
  scaffolded: Schema.Array(Schema.String).annotations({
    description: "The template files this call wrote (those not already there)."
  })
})
type Output = typeof Output.Type

/** The template's files, relative to its folder, depth-first. */
const templateFiles = async (dir = templateDir): Promise<Array<string>> => {
  const entries = await readdir(dir, { withFileTypes: true })
  const files = await Promise.all(
    entries.map(async (entry) =>
      entry.isDirectory() ? templateFiles(join(dir, entry.name)) : [relativeTo(templateDir, join(dir, entry.name))]
    )
  )
  return files.flat().sort()
}

const exists = (root: ReturnType<typeof fileRootOf>, path: string) =>
  root.resolve(path).then(({ absolute }) =>
    stat(absolute).then(
      (info) => info.isFile(),
      () => false
    )
  )

export const scaffoldReactNode = defineSkill({
  description:
    "Scaffold a React front end and a Node server from the node's template into the file root and build them " +
    `offline with esbuild: the front end to one self-contained page (${defaultEntry}), the server to ${serverOut}. ` +
    `Write your own ${appFile} first, or pass it as app; files already there are kept. Reports built, previewPath and the build log.`,
  input: Input,
  output: Output,
  timeoutMs: 120_000,
  run: async (input, context) => {
    const root = fileRootOf(context)
    const encoder = new TextEncoder()
    const scaffolded: Array<string> = []
    for (const path of await templateFiles()) {
      const replaced = path === appFile && input.app !== undefined
      if (!replaced && (await exists(root, path))) continue
      const text = replaced ? input.app! : await readFile(join(templateDir, path), "utf8")
      scaffolded.push((await root.write(path, encoder.encode(text))).path)
    }
    const rootDir = (await root.resolve("")).absolute
    const front = await buildFrontEnd(rootDir, frontEntry, input.title)
    const server = await buildServer(rootDir, serverEntry, serverOut)
    if (front.html !== null) await root.write(defaultEntry, encoder.encode(front.html))
    if (server.code !== null) await root.write(serverOut, encoder.encode(server.code))
    const built = front.ok && server.ok
    const previewPath = front.html === null ? null : defaultEntry
    const output: Output = {
      built,
      previewPath,
      previewUrl:
        previewPath === null || context.projectId === null
          ? null
          : `/api/files/project/${context.projectId}/${previewPath}`,
      buildLog: [buildHeader(), ...front.log, ...server.log, built ? "Built." : "The build failed."].join("\n"),
      scaffolded
    }
    context.trace({
      kind: built ? "message" : "error",
      text: built ? `built ${defaultEntry}` : "the build failed",
      data: { built, previewPath }
    })
    return output
  }
})
