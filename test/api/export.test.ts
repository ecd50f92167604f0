/**
 * GET /api/export.zip (issue 29): the caller's own data as a ZIP that other programs read. The archive is opened with
 * Info-ZIP's `unzip` and its calendar with python3-icalendar (both independent of the node's writers): every event
 * with its RRULE, the to-dos as VTODOs; memories as JSON Lines and Markdown with YAML front matter; a member's export
 * holds nothing of the owner's.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { parse as parseYaml } from "yaml"
import { tempDir } from "../support/temp-dir.ts"
import { Client, nodeWithOwner, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

/** Downloads the caller's export and unpacks it with `unzip`; answers the folder and the answer's headers. */
const exportOf = async (client: Client) => {
  const answer = await fetch(`${client.base}/api/export.zip`, { headers: { cookie: client.cookieHeader() } })
  expect(answer.status).toBe(200)
  const dir = tempDir("export")
  writeFileSync(join(dir, "export.zip"), Buffer.from(await answer.arrayBuffer()))
  execFileSync("unzip", ["-q", join(dir, "export.zip"), "-d", join(dir, "out")])
  return { dir: join(dir, "out"), headers: answer.headers }
}

const filesUnder = (root: string): Array<string> =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort()

/** The calendar as python3-icalendar reads it. */
const readCalendar = (file: string) =>
  JSON.parse(
    execFileSync(
      "/usr/bin/python3",
      [
        "-c",
        `import icalendar, json, sys
cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
out = {"events": [], "todos": []}
for c in cal.walk("VEVENT"):
    out["events"].append({"uid": str(c["UID"]), "summary": str(c["SUMMARY"]), "start": c.decoded("DTSTART").isoformat(),
        "rrule": c["RRULE"].to_ical().decode() if "RRULE" in c else None})
for c in cal.walk("VTODO"):
    out["todos"].append({"uid": str(c["UID"]), "summary": str(c["SUMMARY"]), "status": str(c["STATUS"]),
        "due": c.decoded("DUE").isoformat() if "DUE" in c else None})
print(json.dumps(out))`,
        file
      ],
      { encoding: "utf8" }
    )
  )

describe("GET /api/export.zip", () => {
  it("answers 401 without a session", async () => {
    expect((await new Client(context.node.url).raw("GET", "/api/export.zip")).status).toBe(401)
  })

  it("holds the caller's memories, calendar, to-dos, threads and ledger in open formats", async () => {
    const { client: owner, being, registration } = context.owner
    const member = await registerMember(context.node, owner)
    const memory = await run(
      owner.api.twin.createMemory({
        payload: { content: "Grandmother's soup: leeks, potatoes, a bay leaf", kind: "document", tags: ["recipes"] }
      })
    )
    const weekly = await run(
      owner.api.twinTime.createEvent({
        payload: { title: "Choir practice", startAt: "2031-01-06T18:00:00Z", recurrence: "FREQ=WEEKLY;BYDAY=MO" }
      })
    )
    const once = await run(
      owner.api.twinTime.createEvent({ payload: { title: "Dentist", startAt: "2031-02-03T08:30:00Z" } })
    )
    const todo = await run(
      owner.api.twinTime.createTodo({ payload: { title: "Pay the rent", dueAt: "2031-01-31T09:00:00Z" } })
    )
    const thread = await run(
      owner.api.threads.openThread({ payload: { kind: "direct", withBeingId: member.being.id } })
    )
    await run(owner.api.threads.postMessage({ path: { id: thread.id }, payload: { content: "The soup recipe is in" } }))
    await run(owner.api.market.wallet())
    await run(member.client.api.twin.createMemory({ payload: { content: "The member's own note" } }))

    const { dir, headers } = await exportOf(owner)
    expect(headers.get("content-type")).toBe("application/zip")
    expect(headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="export-${registration.handle}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`)
    )
    const files = filesUnder(dir)
    expect(files).toEqual(
      expect.arrayContaining([
        "README.md",
        "profile.json",
        "memories.jsonl",
        `memories/${memory.id}.md`,
        "calendar.ics",
        "ledger.csv",
        expect.stringMatching(new RegExp(`^threads/.+-${thread.id}\\.md$`))
      ])
    )
    expect(JSON.parse(readFileSync(join(dir, "profile.json"), "utf8"))).toMatchObject({ handle: registration.handle })

    const jsonl = readFileSync(join(dir, "memories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
    expect(jsonl).toEqual([expect.objectContaining({ id: memory.id, kind: "document", tags: ["recipes"] })])
    const note = readFileSync(join(dir, `memories/${memory.id}.md`), "utf8")
    const [, front, body] = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(note)!
    expect(parseYaml(front!)).toEqual({
      kind: "document",
      tags: ["recipes"],
      importance: memory.importance,
      source: memory.source,
      createdAt: memory.createdAt
    })
    expect(body).toBe("Grandmother's soup: leeks, potatoes, a bay leaf\n")

    const calendar = readCalendar(join(dir, "calendar.ics"))
    expect(calendar.events).toEqual(
      expect.arrayContaining([
        {
          uid: weekly.id,
          summary: "Choir practice",
          start: "2031-01-06T18:00:00+00:00",
          rrule: "FREQ=WEEKLY;BYDAY=MO"
        },
        { uid: once.id, summary: "Dentist", start: "2031-02-03T08:30:00+00:00", rrule: null }
      ])
    )
    expect(calendar.events).toHaveLength(2)
    expect(calendar.todos).toEqual([
      { uid: todo.id, summary: "Pay the rent", status: "NEEDS-ACTION", due: "2031-01-31T09:00:00+00:00" }
    ])

    const threadFile = files.find((file) => file.startsWith("threads/"))!
    expect(readFileSync(join(dir, threadFile), "utf8")).toContain("The soup recipe is in")
    const ledger = readFileSync(join(dir, "ledger.csv"), "utf8").trim().split("\n")
    expect(ledger[0]).toBe("created_at,amount,reason,counterparty,movement_id,order_id,id")
    expect(ledger[1]).toContain(",starting_credit,mint,")

    // The member's export: their own note, their side of the thread, nothing else of the owner's.
    const theirs = await exportOf(member.client)
    const everything = filesUnder(theirs.dir)
      .map((file) => readFileSync(join(theirs.dir, file), "utf8"))
      .join("\n")
    expect(everything).toContain("The member's own note")
    for (const owners of ["Grandmother's soup", "Choir practice", "Dentist", "Pay the rent", being.id]) {
      expect(everything, owners).not.toContain(owners)
    }
  })
})
