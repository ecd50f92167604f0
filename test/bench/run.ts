/**
 * `npm run bench`: every figure the issues name, each beside its anchor measured in the same
 * run, as ratios. A benchmark never fails: a figure that misses its aim says so and goes on.
 * At the end, one table of every figure a section recorded with its aim and verdict (verdicts.ts).
 * `npm run bench -- <section>` runs one section only (the names below).
 */
import { availableParallelism, loadavg } from "node:os"
import { verdictTable } from "./verdicts.ts"

/** Each section: its name (`npm run bench -- <name>` runs it alone), its title, and how it runs. */
const sections: ReadonlyArray<{ readonly name: string; readonly title: string; readonly run: () => Promise<unknown> }> =
  [
    { name: "auth-me", title: "GET /api/auth/me, start and memory (issue 2)", run: () => import("./auth-me.ts") },
    {
      name: "rate-limit",
      title: "The database rate-limit store beside the memory store: CPU per GET /api/auth/me (issue 27)",
      run: async () => (await import("./rate-limit.ts")).benchRateLimit()
    },
    {
      name: "live-channel",
      title: "The live channel and signals (issue 3)",
      run: async () => (await import("./live-channel.ts")).benchLiveChannel()
    },
    {
      name: "pipeline",
      title: "The studio pipeline (issue 4)",
      run: async () => (await import("./pipeline.ts")).benchPipeline()
    },
    {
      name: "npm-start",
      title: "npm start on a built tree (hardening: a fast first minute)",
      run: async () => (await import("./npm-start.ts")).benchNpmStart()
    },
    {
      name: "memory-search",
      title: "Memory search at 100,000 memories (issue 10)",
      run: async () => (await import("./memory-search.ts")).benchMemorySearch()
    },
    {
      name: "memory-vectors-postgres",
      title: "Memory k-NN on PostgreSQL over 10,000 vectors, in SQL beside in the process (issue 16)",
      run: async () => (await import("./memory-vectors-postgres.ts")).benchMemoryVectorsPostgres()
    },
    {
      name: "memory-backfill",
      title: "Embedding backfill against the scripted model server (issue 10)",
      run: async () => (await import("./memory-backfill.ts")).benchMemoryBackfill()
    },
    {
      name: "downloads",
      title: "Downloads of a 100 MB file, whole and by range, beside nginx (issue 10)",
      run: async () => (await import("./downloads.ts")).benchDownloads()
    },
    {
      name: "sandbox",
      title: "code.execute per sandbox tier (issue 11)",
      run: async () => (await import("./sandbox.ts")).benchSandbox()
    },
    {
      name: "documents",
      title: "Documents: docx and pdf of a 20-page document (issue 11)",
      run: async () => (await import("./documents.ts")).benchDocuments()
    },
    {
      name: "market",
      title: "Buys per second with 20 buyers at once (issue 12)",
      run: async () => (await import("./market.ts")).benchMarket()
    },
    {
      name: "muse",
      title: "The Muse's added latency to first token (issue 12)",
      run: async () => (await import("./muse.ts")).benchMuse()
    },
    {
      name: "federation",
      title: "Federation: seal, sign, verify and open a 1 KB message beside node:crypto (issue 13)",
      run: async () => (await import("./federation.ts")).benchFederation()
    },
    {
      name: "deliveries",
      title: "Deliver throughput between two nodes (issue 13)",
      run: async () => (await import("./deliveries.ts")).benchDeliveries()
    },
    {
      name: "plugins",
      title: "A plugin skill through its isolate, and the isolate's cold start (issue 14)",
      run: async () => (await import("./plugins.ts")).benchPlugins()
    },
    {
      name: "speech",
      title: "Speech synthesis: a reply read aloud through the node beside the bare endpoint (issue 17)",
      run: async () => (await import("./speech.ts")).benchSpeech()
    },
    {
      name: "pdf",
      title: "A PDF read as markdown, per page, text and scanned, beside PDF.js's bare text extraction (issue 17)",
      run: async () => (await import("./pdf.ts")).benchPdf()
    },
    {
      name: "postgres-me",
      title: "GET /api/auth/me on PostgreSQL beside SQLite (issue 16)",
      run: async () => (await import("./scale-out/postgres-me.ts")).benchPostgresMe()
    },
    {
      name: "postgres-buys",
      title: "A buy on PostgreSQL beside SQLite, 20 buyers at once (issue 16)",
      run: async () => (await import("./scale-out/postgres-buys.ts")).benchPostgresBuys()
    },
    {
      name: "two-runners",
      title: "Two runner processes on one PostgreSQL beside one, same load (issue 16)",
      run: async () => (await import("./scale-out/two-runners.ts")).benchTwoRunners()
    },
    {
      name: "failover",
      title: "kill -9 of a runner to its entities answering again (issue 16)",
      run: async () => (await import("./scale-out/failover.ts")).benchFailover()
    },
    {
      name: "scale-year",
      title: "How cost grows with data: a heavy year, every list and search route, start and bytes per item (issue 27)",
      run: async () => (await import("./scale-year.ts")).benchScaleYear()
    },
    {
      name: "mcp",
      title: "An MCP memory_search round trip beside GET /api/twin/memories (issue 31)",
      run: async () => (await import("./mcp.ts")).benchMcp()
    },
    {
      name: "backups",
      title:
        "A backup of a node's data, 100,000 memories and 1 GiB of files, beside tar | gzip of the same folders (issue 29; --quick: a tenth)",
      run: async () => (await import("./backups.ts")).benchBackups()
    },
    {
      name: "push",
      title: "Web Push: raise to encrypted pushes delivered, 1,000 subscriptions (issue 30)",
      run: async () => (await import("./push.ts")).benchPush()
    },
    {
      name: "cluster-messaging",
      title: "An entity message round trip to another runner beside the same runner (issue 16)",
      run: async () => (await import("./scale-out/cluster-messaging.ts")).benchClusterMessaging()
    }
  ]

const only = process.argv[2]
if (only !== undefined && !sections.some((section) => section.name === only)) {
  console.error(`No bench section "${only}": one of ${sections.map((section) => section.name).join(", ")}.`)
  process.exit(2)
}

/** Printed before and after: any other work on the machine meanwhile skews every figure. */
const machineLoad = (when: string) => {
  const [one, five, fifteen] = loadavg().map((average) => average.toFixed(2))
  console.log(`load average ${when}: ${one} ${five} ${fifteen} (1/5/15 min) on ${availableParallelism()} cores`)
}

machineLoad("before")
console.log("figures taken with a 1-minute load above 1 say little")
try {
  for (const section of sections) {
    if (only !== undefined && only !== section.name) continue
    console.log(`\n— ${section.title} —`)
    await section.run()
  }
} finally {
  // Also after a section that could not measure: the figures taken before it still stand.
  const table = verdictTable()
  if (table !== "") console.log(`\n— Every figure with an aim, and its verdict —\n${table}\n`)
  machineLoad("after")
}
