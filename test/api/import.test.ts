/**
 * POST /api/twin/import (issue 29): a calendar written by another program (a VTIMEZONE, RRULE, EXDATE, VTODOs), an
 * Obsidian-like vault zipped, a ChatGPT-shaped export (read-only threads, the person's words learned from), each
 * imported twice with nothing doubled; a file it cannot read named as a problem while the others stay; the refusals.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate"
import { describe, expect, it } from "vitest"
import { type Client, nodeWithOwner, refused, registerMember, run } from "../support/node.ts"
import { rawRequest, streamBody } from "../support/raw-http.ts"

const context = nodeWithOwner()

const CALENDAR = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//Another Program//Calendar 9//EN",
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Paris",
  "BEGIN:STANDARD",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
  "BEGIN:VEVENT",
  "UID:standup-42@another.example",
  "DTSTAMP:20301201T000000Z",
  "DTSTART;TZID=Europe/Paris:20310106T090000",
  "DTEND;TZID=Europe/Paris:20310106T091500",
  "SUMMARY:Stand-up",
  "RRULE:FREQ=WEEKLY;BYDAY=MO",
  "EXDATE;TZID=Europe/Paris:20310113T090000",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:holiday-7@another.example",
  "DTSTAMP:20301201T000000Z",
  "DTSTART;VALUE=DATE:20310120",
  "DTEND;VALUE=DATE:20310121",
  "SUMMARY:Day off",
  "END:VEVENT",
  "BEGIN:VTODO",
  "UID:todo-1@another.example",
  "DTSTAMP:20301201T000000Z",
  "SUMMARY:File the taxes",
  "DUE:20310115T170000Z",
  "PRIORITY:1",
  "STATUS:NEEDS-ACTION",
  "END:VTODO",
  "BEGIN:VTODO",
  "UID:todo-2@another.example",
  "DTSTAMP:20301201T000000Z",
  "SUMMARY:Book the train",
  "STATUS:COMPLETED",
  "COMPLETED:20301220T100000Z",
  "END:VTODO",
  "END:VCALENDAR",
  ""
].join("\r\n")

const VAULT = zipSync({
  "vault/Recipes/Soup.md": strToU8("---\ntags: [recipes, winter]\n---\nLeeks, potatoes and a bay leaf.\n"),
  "vault/Daily/2031-01-01.md": strToU8("Walked to the lake. Cold and bright.\n"),
  "vault/.obsidian/workspace.json": strToU8('{"main":{}}'),
  "vault/attachments/photo.png": new Uint8Array([137, 80, 78, 71, 0, 0])
})

/** The shape of a ChatGPT data export's conversations.json: a tree of messages, read from its current node. */
const CHATGPT = JSON.stringify([
  {
    title: "Trip ideas",
    create_time: 1924992000,
    conversation_id: "c-1",
    current_node: "n3",
    mapping: {
      root: { id: "root", parent: null, message: null },
      n1: {
        parent: "root",
        message: {
          author: { role: "user" },
          content: { parts: ["Where should I walk in Lisbon?"] },
          create_time: 1924992001
        }
      },
      old: {
        parent: "n1",
        message: {
          author: { role: "assistant" },
          content: { parts: ["An answer left behind"] },
          create_time: 1924992002
        }
      },
      n2: {
        parent: "n1",
        message: { author: { role: "assistant" }, content: { parts: ["Alfama, at dawn."] }, create_time: 1924992003 }
      },
      n3: {
        parent: "n2",
        message: { author: { role: "user" }, content: { parts: ["I love steep old streets"] }, create_time: 1924992004 }
      }
    }
  }
])

type Part = { readonly name: string; readonly content: string | Uint8Array<ArrayBuffer> }

const importFiles = async (client: Client, parts: ReadonlyArray<Part>, headers: Record<string, string> = {}) => {
  const form = new FormData()
  for (const part of parts) form.append("file", new Blob([part.content]), part.name)
  const answer = await fetch(`${client.base}/api/twin/import`, {
    method: "POST",
    body: form,
    headers: { cookie: client.cookieHeader(), ...headers }
  })
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
}

describe("POST /api/twin/import", () => {
  it("imports a calendar from another program, twice, without doubling anything", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const first = await importFiles(client, [{ name: "work.ics", content: CALENDAR }])
    expect(first).toEqual({
      status: 200,
      body: { imported: { events: 2, todos: 2, memories: 0, threads: 0 }, skipped: 0, problems: [] }
    })
    const again = await importFiles(client, [{ name: "work.ics", content: CALENDAR }])
    expect(again.body).toEqual(first.body)

    const agenda = await run(
      client.api.twinTime.agenda({ urlParams: { from: "2031-01-01T00:00:00Z", to: "2031-01-31T00:00:00Z" } })
    )
    const standups = agenda.filter((entry) => entry.title === "Stand-up").map((entry) => entry.startAt)
    // Mondays at 09:00 in Paris (08:00 UTC), the 13th excepted by its EXDATE.
    expect(standups).toEqual(["2031-01-06T08:00:00.000Z", "2031-01-20T08:00:00.000Z", "2031-01-27T08:00:00.000Z"])
    expect(agenda.filter((entry) => entry.title === "Day off")).toEqual([
      expect.objectContaining({ allDay: true, startAt: "2031-01-20T00:00:00.000Z" })
    ])
    // The node's own export of it, imported back, updates the same rows (its UIDs are the node's ids).
    const exported = await fetch(`${client.base}/api/export.zip`, { headers: { cookie: client.cookieHeader() } })
    const calendar = strFromU8(unzipSync(new Uint8Array(await exported.arrayBuffer()))["calendar.ics"]!)
    expect(calendar).toContain("EXDATE:20310113T080000Z")
    expect((await importFiles(client, [{ name: "calendar.ics", content: calendar }])).body).toEqual(first.body)
    const after = await run(
      client.api.twinTime.agenda({ urlParams: { from: "2031-01-01T00:00:00Z", to: "2031-01-31T00:00:00Z" } })
    )
    expect(after.map((entry) => [entry.title, entry.startAt])).toEqual(
      agenda.map((entry) => [entry.title, entry.startAt])
    )

    const todos = await run(
      client.api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0, status: ["open", "done"] } })
    )
    expect(todos.map((todo) => [todo.title, todo.status, todo.priority, todo.dueAt]).sort()).toEqual([
      ["Book the train", "done", "normal", null],
      ["File the taxes", "open", "urgent", "2031-01-15T17:00:00.000Z"]
    ])
  })

  it("imports a zipped vault's notes once, keeps their tags, and names what it cannot read", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const first = await importFiles(client, [
      { name: "vault.zip", content: VAULT },
      { name: "scan.pdf", content: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]) }
    ])
    expect(first).toEqual({
      status: 200,
      body: {
        imported: { events: 0, todos: 0, memories: 2, threads: 0 },
        skipped: 0,
        problems: [expect.stringContaining("scan.pdf: not a calendar")]
      }
    })
    const again = await importFiles(client, [{ name: "vault.zip", content: VAULT }])
    expect(again.body).toEqual({ imported: { events: 0, todos: 0, memories: 0, threads: 0 }, skipped: 2, problems: [] })

    const memories = await run(client.api.twin.searchMemories({ urlParams: { offset: 0 } }))
    expect(memories.map((memory) => [memory.kind, memory.content, memory.tags]).sort()).toEqual([
      ["document", "# 2031-01-01\n\nWalked to the lake. Cold and bright.", []],
      ["document", "# Soup\n\nLeeks, potatoes and a bay leaf.", ["recipes", "winter"]]
    ])
  })

  it("imports a ChatGPT export as read-only threads, once, and learns from the person's own words", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const queuedBefore = (await run(client.api.twin.getLearning())).queued
    const first = await importFiles(client, [
      { name: "chatgpt.zip", content: zipSync({ "conversations.json": strToU8(CHATGPT) }) }
    ])
    expect(first.body).toEqual({ imported: { events: 0, todos: 0, memories: 0, threads: 1 }, skipped: 0, problems: [] })
    const again = await importFiles(client, [{ name: "conversations.json", content: CHATGPT }])
    expect(again.body).toEqual({ imported: { events: 0, todos: 0, memories: 0, threads: 0 }, skipped: 1, problems: [] })

    const threads = await run(client.api.threads.listThreads({ urlParams: { kind: "imported", limit: 50, offset: 0 } }))
    expect(threads.map((thread) => [thread.kind, thread.title, thread.replyPolicy])).toEqual([
      ["imported", "Trip ideas", "none"]
    ])
    const messages = await run(client.api.threads.listMessages({ path: { id: threads[0]!.id } }))
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Where should I walk in Lisbon?"],
      ["assistant", "Alfama, at dawn."],
      ["user", "I love steep old streets"]
    ])
    expect(
      await refused(client.api.threads.postMessage({ path: { id: threads[0]!.id }, payload: { content: "more?" } }))
    ).toMatchObject({ status: 409, body: { error: "thread_read_only" } })
    expect((await run(client.api.twin.getLearning())).queued).toBe(queuedBefore + 2)
  })

  it("refuses without a session (401), without a file (400), a body not multipart (415), past its limit (413)", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const form = new FormData()
    form.append("file", new Blob([CALENDAR]), "a.ics")
    expect((await fetch(`${context.node.url}/api/twin/import`, { method: "POST", body: form })).status).toBe(401)

    const fieldOnly = new FormData()
    fieldOnly.append("note", "no file here")
    const noFile = await fetch(`${client.base}/api/twin/import`, {
      method: "POST",
      body: fieldOnly,
      headers: { cookie: client.cookieHeader() }
    })
    expect([noFile.status, ((await noFile.json()) as { error: string }).error]).toEqual([400, "no_file"])

    const json = await client.raw("POST", "/api/twin/import", { files: [] })
    expect(json.status).toBe(415)
    const crossSite = await importFiles(client, [{ name: "a.ics", content: CALENDAR }], {
      origin: "https://evil.example"
    })
    expect(crossSite.status).toBe(403)

    const tooLarge = await rawRequest(
      context.node.url,
      `POST /api/twin/import HTTP/1.1\r\nCookie: ${client.cookieHeader()}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${200 * 1024 * 1024 + 1}`,
      "--b\r\n"
    )
    expect([tooLarge.status, (tooLarge.body as { error: string }).error]).toEqual([413, "payload_too_large"])
    // Streamed without a length: counted as it arrives, inside a file's part.
    const streamed = await streamBody(
      context.node.url,
      `POST /api/twin/import HTTP/1.1\r\nCookie: ${client.cookieHeader()}\r\nContent-Type: multipart/form-data; boundary=b`,
      200 * 1024 * 1024 + 8 * 1024 * 1024,
      {
        prefix: Buffer.from(
          '--b\r\nContent-Disposition: form-data; name="file"; filename="notes.md"\r\nContent-Type: text/markdown\r\n\r\n'
        )
      }
    )
    // The node stops reading at the limit (it never hangs) and answers 413; a client still writing may see its
    // connection reset before it reads that answer, as with any server that refuses a body it will not read.
    if (streamed.answer !== null)
      expect([streamed.answer.status, (streamed.answer.body as { error?: string }).error]).toEqual([
        413,
        "payload_too_large"
      ])
    expect((await fetch(`${context.node.url}/api/health`)).status).toBe(200)
    // None of them wrote anything.
    expect(await run(client.api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0 } }))).toEqual([])
  })
})
