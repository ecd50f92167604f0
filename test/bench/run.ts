/**
 * `npm run bench`: every figure the issues name, each beside its anchor measured in the same
 * run, as ratios. A benchmark never fails: a figure that misses its aim says so and goes on.
 * `npm run bench -- <section>` runs one section only: auth-me, live-channel, pipeline or npm-start.
 */
const only = process.argv[2]
const sections = ["auth-me", "live-channel", "pipeline", "npm-start"]
if (only !== undefined && !sections.includes(only)) {
  console.error(`No bench section "${only}": one of ${sections.join(", ")}.`)
  process.exit(2)
}
const runs = (section: string) => only === undefined || only === section

if (runs("auth-me")) {
  console.log("— GET /api/auth/me, start and memory (issue 2) —")
  await import("./auth-me.ts")
}
if (runs("live-channel")) {
  console.log("\n— The live channel and signals (issue 3) —")
  const { benchLiveChannel } = await import("./live-channel.ts")
  await benchLiveChannel()
}
if (runs("pipeline")) {
  console.log("\n— The studio pipeline (issue 4) —")
  const { benchPipeline } = await import("./pipeline.ts")
  await benchPipeline()
}
if (runs("npm-start")) {
  console.log("\n— npm start on a built tree (hardening: a fast first minute) —")
  const { benchNpmStart } = await import("./npm-start.ts")
  await benchNpmStart()
}
