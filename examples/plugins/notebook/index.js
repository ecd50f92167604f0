// The Notebook plugin: two skills over the `filesystem` capability, which for a plugin is its own
// data folder on the node. The folder is the plugin's, shared by every being's calls, so each
// being's notes go in a file of their own, named by the call's `beingId`.
import * as Schema from "effect/Schema"

const Note = Schema.Struct({
  text: Schema.String,
  tag: Schema.NullOr(Schema.String),
  at: Schema.String
})

const notesFile = (beingId) => `notes/${beingId}.jsonl`

const filesOf = (adapters) => {
  // An absent grant is an undefined adapter: say so plainly rather than crash.
  if (adapters.filesystem === undefined) throw new Error("Notebook needs the filesystem capability.")
  return adapters.filesystem
}

const readNotes = async (files, beingId) => {
  const listed = await files.list("notes")
  if (!listed.some((entry) => entry.name === `${beingId}.jsonl`)) return []
  const text = await files.read(notesFile(beingId))
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line))
}

export const activate = (context) => {
  context.contribute("skill", "jot", {
    description: "Saves a short note (with an optional tag) to your notebook; answers how many notes it holds.",
    input: Schema.Struct({
      text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
      tag: Schema.optional(Schema.String.pipe(Schema.maxLength(40)))
    }),
    output: Schema.Struct({ saved: Schema.Boolean, count: Schema.Number }),
    run: async ({ text, tag }, { beingId, adapters }) => {
      const files = filesOf(adapters)
      const note = { text, tag: tag ?? null, at: new Date().toISOString() }
      await files.write(notesFile(beingId), JSON.stringify(note) + "\n", { append: true })
      return { saved: true, count: (await readNotes(files, beingId)).length }
    }
  })

  context.contribute("skill", "recent", {
    description: "Your most recent notes, newest first, optionally only those with a tag.",
    input: Schema.Struct({
      limit: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 50)), { default: () => 5 }),
      tag: Schema.optional(Schema.String)
    }),
    output: Schema.Struct({ notes: Schema.Array(Note) }),
    run: async ({ limit, tag }, { beingId, adapters }) => {
      const notes = await readNotes(filesOf(adapters), beingId)
      const kept = tag === undefined ? notes : notes.filter((note) => note.tag === tag)
      return { notes: kept.reverse().slice(0, limit) }
    }
  })

  // A provider the twin syncs: each of the being's notes becomes a memory, by hand
  // (POST /api/twin/sync/notebook.journal) or every hour. `sync` gets the connection's non-secret
  // `meta` and the last cursor, never a secret; what it answers is checked by the node against
  // ProviderSyncResult ({ items: [{ id, title?, text, url?, at? }], cursor?, note? }).
  context.contribute("integration", "journal", {
    icon: "\u{1F4D3}",
    auth: { kind: "none" },
    syncable: true,
    cadenceMs: 3_600_000,
    sync: async ({ cursor }, { beingId, adapters }) => {
      const notes = await readNotes(filesOf(adapters), beingId)
      // The cursor is how many notes the last pass saw: only the newer ones are handed over.
      const seen = cursor === null ? 0 : Number(cursor)
      const items = notes.slice(seen).map((note, index) => ({
        id: `note-${seen + index + 1}`,
        title: note.tag === null ? "Note" : `Note (${note.tag})`,
        text: note.text,
        at: note.at
      }))
      return { items, cursor: String(notes.length), note: `${items.length} new of ${notes.length}` }
    }
  })

  // A provider another service pushes to: the node verifies each delivery's X-Signature
  // (HMAC-SHA256 of the body with the connection's secret) before `receive` sees the body.
  context.contribute("integration", "inbox", {
    icon: "\u{1F4E5}",
    auth: { kind: "webhook", path: "notes", verify: "hmac-sha256" },
    receive: async ({ body }) => {
      const delivered = JSON.parse(body)
      const notes = Array.isArray(delivered.notes) ? delivered.notes : []
      return { items: notes.map((note) => ({ id: String(note.id), title: "Sent to your notebook", text: String(note.text) })) }
    }
  })
}
