/**
 * `npm run bench`: every figure the issues name, each beside its anchor measured in the same
 * run, as ratios. A benchmark never fails: a figure that misses its aim says so and goes on.
 */
console.log("— GET /api/auth/me, start and memory (issue 2) —")
await import("./auth-me.ts")
console.log("\n— The live channel and signals (issue 3) —")
const { benchLiveChannel } = await import("./live-channel.ts")
await benchLiveChannel()
console.log("\n— The studio pipeline (issue 4) —")
const { benchPipeline } = await import("./pipeline.ts")
await benchPipeline()
console.log("\n— npm start on a built tree (hardening: a fast first minute) —")
const { benchNpmStart } = await import("./npm-start.ts")
await benchNpmStart()
console.log("\n— code.execute per sandbox tier (issue 11) —")
await (await import("./sandbox.ts")).benchSandbox()
console.log("\n— Documents: docx and pdf of a 20-page document (issue 11) —")
const { benchDocuments } = await import("./documents.ts")
await benchDocuments()
console.log("\n— Buys per second with 20 buyers at once (issue 12) —")
await (await import("./market.ts")).benchMarket()
